/**
 * The try-it page of the admin app (`GET /`, svc.try-it.enabled, on in dev): a self-contained
 * login client that does what an admin front-end does. It fetches /auth/getConfig, shows the SVG
 * captcha, encrypts the password in the browser (WebCrypto RSA-OAEP/SHA-256; JSEncrypt
 * `encryptOAEP(unescape(encodeURIComponent(pw)))` where WebCrypto is missing, i.e. plain http on
 * another host; JSEncrypt `encrypt()` for the pkcs1 padding), logs in, shows the token, expiry,
 * roles and permissions, calls /auth/me, refreshes and logs out; with a session it registers and
 * lists passkeys (./try-it-passkeys.ts) and enrols or removes an authenticator app (./try-it-totp.ts).
 *
 * No CDN: the script is served from this app and JSEncrypt from node_modules, so the security
 * headers' CSP (script-src 'self', img-src data: for the captcha and the TOTP QR code,
 * connect-src 'self') holds as is.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { route, type RouteDef } from '../routes';
import { HtmlPage, JavaScriptSource } from '../schemas/operation-schemas';
import { PASSKEY_SCRIPT, PASSKEY_SECTION } from './try-it-passkeys';
import { TOTP_SCRIPT, TOTP_SECTION } from './try-it-totp';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>authguard admin: try it</title>
  <link rel="icon" href="data:,">
  <style>
    body { font: 14px/1.45 system-ui, sans-serif; max-width: 860px; margin: 2em auto; padding: 0 1em; color: #222; }
    h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
    label { display: block; margin: .4em 0; } input { font: inherit; padding: .25em .4em; width: 16em; }
    button { font: inherit; margin: .2em .3em .2em 0; padding: .3em .8em; cursor: pointer; }
    button:disabled { cursor: default; opacity: .5; }
    #captcha-img { vertical-align: middle; border: 1px solid #ccc; cursor: pointer; height: 40px; }
    pre { background: #f5f5f5; padding: .6em; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
    dt { font-weight: 600; } dd { margin: 0 0 .5em 0; font-family: ui-monospace, monospace; word-break: break-all; }
    .muted { color: #666; } .error { color: #b00020; }
  </style>
</head>
<body>
  <h1>authguard admin: try it</h1>
  <p class="muted">A development aid (svc.try-it.enabled). The password is encrypted in this browser with the
  public key from <code>/auth/getConfig</code> before it is sent.</p>

  <h2>1. Configuration</h2>
  <pre id="config">loading /auth/getConfig ...</pre>

  <h2>2. Log in</h2>
  <form id="login-form" autocomplete="off">
    <label>Username <input id="username" name="username" value="admin" required></label>
    <label>Password <input id="password" name="password" type="password" required></label>
    <div id="captcha-row" hidden>
      <label>Captcha <input id="code" name="code"> <img id="captcha-img" alt="captcha (click for a new one)"></label>
    </div>
    <button id="login" type="submit" disabled>Log in</button>
  </form>
  <p id="status" role="status"></p>

  <h2>3. Session</h2>
  <dl id="session">
    <dt>Access token</dt><dd id="access-token">-</dd>
    <dt>Refresh token</dt><dd id="refresh-token">-</dd>
    <dt>Expires</dt><dd id="expires">-</dd>
    <dt>Roles</dt><dd id="roles">-</dd>
    <dt>Permissions</dt><dd id="permissions">-</dd>
  </dl>
  <button id="me" disabled>GET /auth/me</button>
  <button id="refresh" disabled>POST /auth/refresh-token</button>
  <button id="logout" disabled>POST /auth/logout</button>

  <h2>4. Change the password</h2>
  <form id="password-form" autocomplete="off">
    <label>Current <input id="current-password" type="password" required></label>
    <label>New <input id="new-password" type="password" required></label>
    <button id="change-password" type="submit" disabled>POST /auth/password</button>
  </form>
${PASSKEY_SECTION}${TOTP_SECTION}
  <h2>Last response</h2>
  <pre id="output">-</pre>

  <script src="/try-it/jsencrypt.min.js"></script>
  <script src="/try-it/app.js"></script>
  <script src="/try-it/passkeys.js"></script>
  <script src="/try-it/totp.js"></script>
</body>
</html>
`;

const SCRIPT = String.raw`(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var state = { config: null, uuid: '', accessToken: '', refreshToken: '' };

  function setStatus(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }
  function show(res) { $('output').textContent = res.status + '\n' + JSON.stringify(res.json, null, 2); }

  async function call(method, path, body, withToken) {
    var headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (withToken && state.accessToken) headers.Authorization = 'Bearer ' + state.accessToken;
    var res = await fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
    var json = null;
    try { json = await res.json(); } catch (e) { json = null; }
    return { status: res.status, json: json };
  }

  function pemToDer(pem) {
    var b64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }
  function toBase64(buf) {
    var bytes = new Uint8Array(buf);
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s);
  }

  /** What vue-pure-admin-style clients send: base64 RSA ciphertext of the UTF-8 password. */
  async function encryptPassword(pw) {
    var cfg = state.config;
    if (cfg.rsaPadding === 'oaep-sha256' && window.crypto && window.crypto.subtle) {
      var key = await crypto.subtle.importKey('spki', pemToDer(cfg.publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
      return toBase64(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(pw)));
    }
    if (typeof window.JSEncrypt !== 'function') throw new Error('no WebCrypto here and JSEncrypt did not load');
    var j = new window.JSEncrypt();
    j.setPublicKey(cfg.publicKey);
    // encryptOAEP does not UTF-8-encode its input; encrypt() (PKCS#1 v1.5) does.
    var out = cfg.rsaPadding === 'oaep-sha256' ? j.encryptOAEP(unescape(encodeURIComponent(pw))) : j.encrypt(pw);
    if (!out) throw new Error('encryption failed');
    return out;
  }

  /** A login that asks for its second factor: a passkey of this browser, else a code from the authenticator app. */
  async function secondStep(res) {
    var d = res.status === 200 && res.json && res.json.data;
    if (!d || !d.mfaRequired) return res;
    var proof;
    if (d.methods.indexOf('webauthn') >= 0 && window.PublicKeyCredential && PublicKeyCredential.parseRequestOptionsFromJSON) {
      var opts = await call('POST', '/auth/mfa/webauthn/options', { mfaToken: d.mfaToken });
      if (opts.status !== 200) return opts;
      var credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(opts.json.data) });
      proof = { mfaToken: d.mfaToken, webauthn: credential.toJSON() };
    } else {
      proof = { mfaToken: d.mfaToken, code: window.prompt('Second factor: the code of your authenticator app') || '' };
    }
    return call('POST', '/auth/mfa/verify', proof);
  }

  async function loadCaptcha() {
    var res = await call('GET', '/auth/captchaImage');
    if (res.status !== 200) { show(res); setStatus('captcha: ' + (res.json && res.json.message), true); return; }
    state.uuid = res.json.data.uuid || '';
    $('captcha-img').src = res.json.data.img;
    $('code').value = '';
  }

  function setSession(data, extra) {
    state.accessToken = data.accessToken || '';
    state.refreshToken = data.refreshToken || '';
    $('access-token').textContent = state.accessToken || '-';
    $('refresh-token').textContent = state.refreshToken || '-';
    $('expires').textContent = data.expires || (state.accessToken ? 'never' : '-');
    if (extra) {
      $('roles').textContent = (extra.roles || []).join(', ') || '-';
      $('permissions').textContent = (extra.permissions || []).join(', ') || '-';
    }
    var on = !!state.accessToken;
    $('me').disabled = !on; $('refresh').disabled = !on; $('logout').disabled = !on; $('change-password').disabled = !on;
    if (window.tryItPasskeys) window.tryItPasskeys.sessionChanged(on);
    if (window.tryItTotp) window.tryItTotp.sessionChanged(on);
  }

  async function init() {
    var res = await call('GET', '/auth/getConfig');
    if (res.status !== 200 || !res.json || res.json.code !== 0) { show(res); setStatus('getConfig failed', true); return; }
    state.config = res.json.data;
    var c = state.config;
    var webCrypto = c.rsaPadding === 'oaep-sha256' && window.crypto && window.crypto.subtle;
    var shown = { captchaEnabled: c.captchaEnabled, captchaType: c.captchaType, rsaPadding: c.rsaPadding };
    shown.encryptWith = webCrypto ? 'WebCrypto RSA-OAEP SHA-256' : 'JSEncrypt';
    $('config').textContent = JSON.stringify(shown, null, 2) + '\n' + state.config.publicKey;
    if (state.config.captchaEnabled) { $('captcha-row').hidden = false; await loadCaptcha(); }
    $('login').disabled = false;
    setStatus('ready');
  }

  $('captcha-img').addEventListener('click', function () { loadCaptcha(); });

  $('login-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    setStatus('logging in ...');
    try {
      var body = { username: $('username').value, password: await encryptPassword($('password').value) };
      if (state.config.captchaEnabled) { body.code = $('code').value; body.uuid = state.uuid; }
      var res = await secondStep(await call('POST', '/auth/login', body));
      show(res);
      if (res.status === 200 && res.json.code === 0) {
        setSession(res.json.data, res.json.data);
        setStatus('logged in as ' + res.json.data.username);
      } else {
        setStatus('login refused: ' + (res.json ? res.json.code + ' ' + res.json.message : res.status), true);
        if (state.config.captchaEnabled) await loadCaptcha();
      }
    } catch (e) { setStatus(String(e && e.message || e), true); }
  });

  $('me').addEventListener('click', async function () {
    var res = await call('GET', '/auth/me', undefined, true);
    show(res);
    if (res.status === 200) {
      setSession({ accessToken: state.accessToken, refreshToken: state.refreshToken, expires: $('expires').textContent }, res.json.data);
      setStatus('GET /auth/me ok');
    }
    else setStatus('GET /auth/me: ' + (res.json && res.json.message), true);
  });

  $('refresh').addEventListener('click', async function () {
    var res = await call('POST', '/auth/refresh-token', { refreshToken: state.refreshToken });
    show(res);
    if (res.status === 200) { setSession(res.json.data); setStatus('refreshed: new access and refresh token'); }
    else { setSession({}); setStatus('refresh refused: ' + (res.json && res.json.message), true); }
  });

  $('password-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    try {
      var body = {
        currentPassword: await encryptPassword($('current-password').value),
        newPassword: await encryptPassword($('new-password').value)
      };
      var res = await call('POST', '/auth/password', body, true);
      show(res);
      if (res.status === 200 && res.json.code === 0) {
        state.refreshToken = res.json.data.refreshToken || state.refreshToken;
        $('refresh-token').textContent = state.refreshToken;
        setStatus('password changed; other sessions ended: ' + res.json.data.sessionsEnded);
      } else setStatus('password change refused: ' + (res.json ? res.json.code + ' ' + res.json.message : res.status), true);
    } catch (e) { setStatus(String(e && e.message || e), true); }
  });

  $('logout').addEventListener('click', async function () {
    var res = await call('POST', '/auth/logout', undefined, true);
    show(res);
    setSession({}, { roles: [], permissions: [] });
    setStatus(res.status === 200 ? 'logged out' : 'logout: ' + (res.json && res.json.message), res.status !== 200);
  });

  // for /try-it/passkeys.js and /try-it/totp.js
  window.tryIt = { call: call, show: show, setStatus: setStatus, setSession: setSession, encryptPassword: encryptPassword };

  init().catch(function (e) { setStatus(String(e && e.message || e), true); });
})();
`;

function jsencryptFile(): string {
  return path.join(path.dirname(require.resolve('jsencrypt/package.json')), 'bin', 'jsencrypt.min.js');
}

interface Asset {
  readonly path: string;
  readonly summary: string;
  /** Media type without parameters; served with `; charset=utf-8`. */
  readonly contentType: 'text/html' | 'application/javascript';
  readonly cacheControl: string;
  readonly body: () => string | Buffer | Promise<string | Buffer>;
}

function assetRoute(a: Asset): RouteDef {
  return route({
    method: 'get',
    path: a.path,
    summary: a.summary,
    tags: ['try-it'],
    raw: { content: { [a.contentType]: a.contentType === 'text/html' ? HtmlPage : JavaScriptSource } },
    handler: async (ctx) => {
      const body = await a.body();
      ctx.set('Cache-Control', a.cacheControl);
      ctx.type = `${a.contentType}; charset=utf-8`;
      ctx.body = body;
    },
  });
}

export function tryItRoutes(): RouteDef[] {
  let jsencrypt: Buffer | undefined;
  const assets: Asset[] = [
    {
      path: '/',
      summary: 'Try-it page: log in through the browser (svc.try-it.enabled)',
      contentType: 'text/html',
      cacheControl: 'no-store',
      body: () => PAGE,
    },
    {
      path: '/try-it/app.js',
      summary: 'Try-it page script',
      contentType: 'application/javascript',
      cacheControl: 'no-store',
      body: () => SCRIPT,
    },
    {
      path: '/try-it/passkeys.js',
      summary: 'Try-it page script: passkeys (WebAuthn)',
      contentType: 'application/javascript',
      cacheControl: 'no-store',
      body: () => PASSKEY_SCRIPT,
    },
    {
      path: '/try-it/totp.js',
      summary: 'Try-it page script: authenticator app (TOTP) enrolment and removal',
      contentType: 'application/javascript',
      cacheControl: 'no-store',
      body: () => TOTP_SCRIPT,
    },
    {
      path: '/try-it/jsencrypt.min.js',
      summary: 'JSEncrypt (from node_modules), for PKCS#1 and for OAEP where WebCrypto is unavailable',
      contentType: 'application/javascript',
      cacheControl: 'public, max-age=3600',
      body: async () => (jsencrypt ??= await readFile(jsencryptFile())),
    },
  ];
  return assets.map(assetRoute);
}
