/**
 * The try-it page's passkey section (`/try-it/passkeys.js`): with a session, register a passkey of
 * this browser (`navigator.credentials.create()` with the server's options, WebAuthn's JSON helpers)
 * and list them; without one, log in with a passkey alone (`navigator.credentials.get()`). It uses
 * the page's own helpers (`window.tryIt`: the API call with the session's token, the output and
 * status lines) and hears of session changes through `window.tryItPasskeys`.
 */

export const PASSKEY_SECTION = `
  <h2>5. Passkeys</h2>
  <p class="muted">Needs a browser with WebAuthn and an authenticator (this device's, a phone, a security key).</p>
  <label>Name <input id="passkey-name" value="try-it passkey"></label>
  <button id="passkey-register" disabled>Register a passkey</button>
  <button id="passkey-login">Log in with a passkey</button>
  <ul id="passkeys"></ul>
`;

export const PASSKEY_SCRIPT = String.raw`(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var t = window.tryIt;

  function supported() {
    return !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
  }

  async function list() {
    var res = await t.call('GET', '/auth/passkeys', undefined, true);
    var ul = $('passkeys');
    ul.textContent = '';
    if (res.status !== 200) return;
    res.json.data.forEach(function (p) {
      var li = document.createElement('li');
      li.textContent = p.name + ' (created ' + p.createdAt + ', last used ' + (p.lastUsedAt || 'never') + ')';
      li.setAttribute('data-id', p.id);
      ul.appendChild(li);
    });
  }

  async function register() {
    if (!supported()) { t.setStatus('this browser has no WebAuthn JSON helpers', true); return; }
    var res = await t.call('POST', '/auth/passkeys/options', undefined, true);
    t.show(res);
    if (res.status !== 200) { t.setStatus('passkey options refused: ' + (res.json && res.json.message), true); return; }
    var credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(res.json.data) });
    var reg = await t.call('POST', '/auth/passkeys', { response: credential.toJSON(), name: $('passkey-name').value }, true);
    t.show(reg);
    if (reg.status !== 201) { t.setStatus('passkey refused: ' + (reg.json && reg.json.message), true); return; }
    t.setStatus('passkey registered: ' + reg.json.data.name);
    await list();
  }

  async function logIn() {
    if (!supported()) { t.setStatus('this browser has no WebAuthn JSON helpers', true); return; }
    var res = await t.call('POST', '/auth/passkey-login/options');
    t.show(res);
    if (res.status !== 200) { t.setStatus('passkey login options refused: ' + (res.json && res.json.message), true); return; }
    var credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(res.json.data) });
    var login = await t.call('POST', '/auth/passkey-login', { response: credential.toJSON() });
    t.show(login);
    if (login.status !== 200 || login.json.code !== 0) {
      t.setStatus('passkey login refused: ' + (login.json && login.json.message), true);
      return;
    }
    t.setSession(login.json.data, login.json.data);
    t.setStatus('logged in with a passkey as ' + login.json.data.username);
  }

  $('passkey-login').addEventListener('click', function () {
    logIn().catch(function (e) { t.setStatus('passkey: ' + String(e && e.message || e), true); });
  });

  $('passkey-register').addEventListener('click', function () {
    register().catch(function (e) { t.setStatus('passkey: ' + String(e && e.message || e), true); });
  });

  window.tryItPasskeys = {
    sessionChanged: function (on) {
      $('passkey-register').disabled = !on;
      if (on) list(); else $('passkeys').textContent = '';
    },
  };
})();
`;
