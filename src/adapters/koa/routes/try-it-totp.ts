/**
 * The try-it page's authenticator-app section (`/try-it/totp.js`): with a session, enrol a TOTP
 * factor (`POST /auth/mfa/totp/setup` shows the QR code and the base32 secret, `POST
 * /auth/mfa/totp/confirm` with a first code answers the ten recovery codes, shown this once) and
 * remove it (`DELETE /auth/mfa/totp`). Removal needs a recent login: on 403 `step-up-required` the
 * step-up form appears (the password, RSA-encrypted as at login, or a current code), and once
 * `POST /auth/step-up` answers the removal is sent again.
 *
 * The QR code is the server's own SVG, shown as an `<img>` from a `data:image/svg+xml;base64` URL:
 * an image document runs no script and loads nothing, whatever the SVG holds, and the page's CSP
 * already allows data: images (for the captcha). Nothing from the answer is put into the page as
 * markup; the secret and the codes are set as text.
 */

export const TOTP_SECTION = `
  <h2>6. Authenticator app (TOTP)</h2>
  <p class="muted">Scan the QR code with an authenticator app (or type the secret in), then confirm with its code.
  The next password login asks for a code.</p>
  <button id="totp-setup" disabled>Set up authenticator app</button>
  <button id="totp-remove" disabled>Remove authenticator app</button>
  <div id="totp-enrol" hidden>
    <p><img id="totp-qr" alt="QR code of the otpauth URI" width="200" height="200"></p>
    <p>Secret (base32): <code id="totp-secret"></code></p>
    <form id="totp-confirm-form" autocomplete="off">
      <label>Code <input id="totp-code" inputmode="numeric" autocomplete="one-time-code" required></label>
      <button id="totp-confirm" type="submit">Confirm</button>
    </form>
  </div>
  <div id="totp-recovery" hidden>
    <p>Recovery codes, shown this once: each stands in for a code once when the app is lost. Keep them safe.</p>
    <ol id="totp-recovery-codes"></ol>
  </div>
  <div id="step-up" hidden>
    <p class="error">This needs a recent login: confirm it is you (POST /auth/step-up), with your password or a
    current code, and it is sent again.</p>
    <form id="step-up-form" autocomplete="off">
      <label>Password <input id="step-up-password" type="password"></label>
      <label>or code <input id="step-up-code" inputmode="numeric" autocomplete="one-time-code"></label>
      <button id="step-up-submit" type="submit">Confirm it is me</button>
    </form>
  </div>
`;

export const TOTP_SCRIPT = String.raw`(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var t = window.tryIt;
  /** The action that answered step-up-required, sent again after a step-up. */
  var waiting = null;

  function refused(what, res) {
    t.setStatus(what + ': ' + (res.json ? res.json.code + ' ' + res.json.message : res.status), true);
  }
  function stepUpRequired(res) { return res.status === 403 && !!res.json && res.json.code === 40305; }
  function svgImage(svg) { return 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(svg))); }

  function reset() {
    $('totp-enrol').hidden = true; $('totp-recovery').hidden = true; $('step-up').hidden = true;
    $('totp-qr').removeAttribute('src'); $('totp-secret').textContent = ''; $('totp-recovery-codes').textContent = '';
    waiting = null;
  }

  async function setUp() {
    reset();
    var res = await t.call('POST', '/auth/mfa/totp/setup', undefined, true);
    if (res.status !== 200 || res.json.code !== 0) { t.show(res); refused('authenticator setup refused', res); return; }
    var d = res.json.data;
    var shown = { secret: d.secret, otpauthUrl: d.otpauthUrl, qrSvg: '(shown above)' };
    t.show({ status: res.status, json: { code: 0, message: res.json.message, data: shown } });
    $('totp-qr').src = svgImage(d.qrSvg);
    $('totp-secret').textContent = d.secret;
    $('totp-code').value = '';
    $('totp-enrol').hidden = false;
    t.setStatus('scan the QR code, then confirm with the app\'s code');
  }

  async function confirm() {
    var res = await t.call('POST', '/auth/mfa/totp/confirm', { code: $('totp-code').value.trim() }, true);
    t.show(res);
    if (res.status !== 200 || res.json.code !== 0) { refused('authenticator code refused', res); return; }
    $('totp-enrol').hidden = true;
    $('totp-qr').removeAttribute('src');
    $('totp-secret').textContent = '';
    var ol = $('totp-recovery-codes');
    ol.textContent = '';
    res.json.data.recoveryCodes.forEach(function (c) {
      var li = document.createElement('li');
      li.textContent = c;
      ol.appendChild(li);
    });
    $('totp-recovery').hidden = false;
    t.setStatus('authenticator app enrolled: keep the recovery codes');
  }

  async function remove() {
    var res = await t.call('DELETE', '/auth/mfa/totp', undefined, true);
    t.show(res);
    if (stepUpRequired(res)) {
      waiting = remove;
      $('step-up').hidden = false;
      t.setStatus('removing the authenticator app needs a recent login: confirm it is you below', true);
      return;
    }
    if (res.status !== 204) { refused('removal refused', res); return; }
    reset();
    t.setStatus('authenticator app removed');
  }

  async function stepUp() {
    var pw = $('step-up-password').value;
    var body = pw ? { password: await t.encryptPassword(pw) } : { code: $('step-up-code').value.trim() };
    var res = await t.call('POST', '/auth/step-up', body, true);
    t.show(res);
    $('step-up-password').value = ''; $('step-up-code').value = '';
    if (res.status !== 200 || res.json.code !== 0) { refused('step-up refused', res); return; }
    $('step-up').hidden = true;
    t.setStatus('confirmed: re-authenticated at ' + res.json.data.authTime);
    var next = waiting;
    waiting = null;
    if (next) await next();
  }

  function on(id, type, fn) {
    $(id).addEventListener(type, function (ev) {
      ev.preventDefault();
      fn().catch(function (e) { t.setStatus('authenticator: ' + String(e && e.message || e), true); });
    });
  }
  on('totp-setup', 'click', setUp);
  on('totp-confirm-form', 'submit', confirm);
  on('totp-remove', 'click', remove);
  on('step-up-form', 'submit', stepUp);

  window.tryItTotp = {
    sessionChanged: function (on) {
      $('totp-setup').disabled = !on; $('totp-remove').disabled = !on;
      if (!on) reset();
    },
  };
})();
`;
