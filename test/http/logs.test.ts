import assert from 'node:assert/strict';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import 'reflect-metadata';
import request from 'supertest';
import { createPinoLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';
import { testConfig } from '../support/apps';

/** A pino destination that keeps every line, parsed. */
function captureLogs() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (s: string) => void lines.push(s) },
    parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('logs: one access line per request, secrets never logged', () => {
  const capture = captureLogs();
  let infra: Infrastructure;
  let admin: ReturnType<typeof buildAdminApp>;
  let web: ReturnType<typeof buildWebApp>;

  before(() => {
    const config = testConfig({ 'session.is-log': true });
    const log = createPinoLogger({ level: 'debug', destination: capture.stream });
    infra = createInfrastructure(config, { log });
    admin = buildAdminApp(config, infra);
    web = buildWebApp(config, infra);
  });
  after(async () => infra?.close());

  it('writes an access line with method, route, status, duration, request id and client ip', async () => {
    capture.lines.length = 0;
    await request(admin.app.callback()).get('/auth/me').set('X-Request-Id', 'access-1').expect(401);
    const access = capture.parsed().filter((l) => l.msg === 'request');
    assert.equal(access.length, 1);
    const line = access[0] as Record<string, unknown>;
    assert.equal(line.requestId, 'access-1');
    assert.equal(line.app, 'admin');
    assert.equal(line.method, 'GET');
    assert.equal(line.route, '/auth/me');
    assert.equal(line.status, 401);
    assert.equal(typeof line.durationMs, 'number');
    assert.equal(typeof line.clientIp, 'string');
    assert.equal(line.level, 30);
  });

  it('logs unmatched paths under a fixed route label and without the query string', async () => {
    capture.lines.length = 0;
    await request(web.app.callback()).get('/no/such/path?password=hunter2').expect(404);
    const [line] = capture.parsed().filter((l) => l.msg === 'request');
    assert.equal(line?.route, 'unmatched');
    assert.equal(line?.status, 404);
    assert.ok(!capture.lines.join('').includes('hunter2'));
  });

  it('never writes a token, password, refresh token, cookie or signature', async () => {
    capture.lines.length = 0;
    const managers = admin.container.get(SessionManagers);
    const { token } = await managers.get('admin').login({ userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] });
    const secrets = {
      token,
      password: 'Pa55word-never-logged',
      refreshToken: 'f00dfeedf00dfeedf00dfeedf00dfeed',
      sign: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0abcd',
      cookie: 'SESSIONID=cookie-value-never-logged',
    };
    const withSecrets = (t: request.Test) =>
      t
        .set('Authorization', `Bearer ${secrets.token}`)
        .set('X-Sign', secrets.sign)
        .set('Cookie', secrets.cookie)
        .set('X-App-Key', 'demo-app');
    const body = { username: 'admin', password: secrets.password, refreshToken: secrets.refreshToken };
    const a = admin.app.callback();
    const w = web.app.callback();
    await withSecrets(request(a).get('/auth/me')).expect(200);
    await withSecrets(request(a).post('/auth/me')).send(body).expect(405);
    await withSecrets(request(a).post('/auth/login-nowhere')).send(body).expect(404);
    await withSecrets(request(a).post('/auth/me'))
      .set('Content-Type', 'application/json')
      .send(`{"password":"${secrets.password}",`)
      .expect(400);
    await withSecrets(request(w).get('/user/profile')).expect(401);
    await withSecrets(request(w).post('/user/profile')).send(body).expect(405);
    await managers.get('admin').logout(token);

    const all = capture.lines.join('');
    assert.ok(capture.parsed().filter((l) => l.msg === 'request').length >= 6, 'access lines were written');
    assert.ok(
      capture.parsed().some((l) => l.level === 20),
      'session debug lines were written (is-log)',
    );
    for (const [name, value] of Object.entries(secrets)) assert.ok(!all.includes(value), `${name} leaked into the logs`);
    assert.ok(!all.includes('Bearer '), 'an Authorization header value leaked');
  });

  it('redacts secrets handed to the logger directly, wherever the adapter knows to look', () => {
    const c = captureLogs();
    const log = createPinoLogger({ destination: c.stream });
    log.info(
      { req: { headers: { authorization: 'Bearer t-1', cookie: 'c-1', 'x-sign': 's-1' } }, password: 'p-1', refreshToken: 'r-1' },
      'x',
    );
    log.error(
      {
        requestId: 'r',
        err: Object.assign(new Error('bad json'), { body: '{"password":"p-2"}' }),
        user: { password: 'p-3', accessToken: 't-2' },
      },
      'y',
    );
    const all = c.lines.join('');
    for (const v of ['t-1', 'c-1', 's-1', 'p-1', 'r-1', 'p-2', 'p-3', 't-2'])
      assert.ok(!all.includes(`"${v}`) && !all.includes(v + '"'), `${v} leaked`);
    assert.ok(all.includes('[REDACTED]'));
  });
});

describe('logs over a full flow: getConfig -> login -> me -> refresh -> logout, and a signed request', function () {
  this.timeout(30000);
  const SIGN_APP = 'log-flow-app';
  const SIGN_SECRET = 'log-flow-secret-0123456789abcdef';
  const capture = captureLogs();
  let infra: Infrastructure;
  let admin: ReturnType<typeof buildAdminApp>;
  let web: ReturnType<typeof buildWebApp>;

  before(() => {
    const config = testConfig({
      'session.is-log': true,
      'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
      'svc.crypto.worker-threads': 1,
    });
    const log = createPinoLogger({ level: 'debug', destination: capture.stream });
    infra = createInfrastructure(config, { log });
    admin = buildAdminApp(config, infra);
    web = buildWebApp(config, infra);
  });
  after(async () => infra?.close());

  it('writes access and session debug lines but no token, refresh token, password (plain or encrypted) or X-Sign', async () => {
    const a = admin.app.callback();
    const password = 'admin123';
    const cfg = await request(a).get('/auth/getConfig').expect(200);
    const encrypted = publicEncrypt(
      { key: cfg.body.data.publicKey as string, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(password, 'utf8'),
    ).toString('base64');
    // a failed attempt first: its ciphertext must not be logged either
    const wrong = publicEncrypt(
      { key: cfg.body.data.publicKey as string, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('wrong-pass-1', 'utf8'),
    ).toString('base64');
    await request(a).post('/auth/login').send({ username: 'admin', password: wrong }).expect(401);
    const login = await request(a).post('/auth/login').send({ username: 'admin', password: encrypted }).expect(200);
    const { accessToken, refreshToken } = login.body.data as { accessToken: string; refreshToken: string };
    await request(a).get('/auth/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
    const refreshed = await request(a).post('/auth/refresh-token').send({ refreshToken }).expect(200);
    const next = refreshed.body.data as { accessToken: string; refreshToken: string };
    await request(a).get('/auth/me').set('Authorization', `Bearer ${accessToken}`).expect(401);
    await request(a).post('/auth/logout').set('Authorization', `Bearer ${next.accessToken}`).expect(200);

    const body = '{"order":42}';
    const ts = String(Date.now());
    const nonce = randomBytes(12).toString('hex');
    const sign = createHmac('sha256', SIGN_SECRET)
      .update(SIGN_APP + ts + nonce + body)
      .digest('hex');
    await request(web.app.callback())
      .post('/open/echo')
      .set({ 'X-App-Key': SIGN_APP, 'X-Timestamp': ts, 'X-Nonce': nonce, 'X-Sign': sign, 'Content-Type': 'application/json' })
      .send(body)
      .expect(200);

    const lines = capture.parsed();
    const routes = lines.filter((l) => l.msg === 'request').map((l) => `${String(l.method)} ${String(l.route)} ${String(l.status)}`);
    for (const r of [
      'GET /auth/getConfig 200',
      'POST /auth/login 401',
      'POST /auth/login 200',
      'GET /auth/me 200',
      'POST /auth/refresh-token 200',
      'GET /auth/me 401',
      'POST /auth/logout 200',
      'POST /open/echo 200',
    ]) {
      assert.ok(routes.includes(r), `access line for ${r} (got ${routes.join(', ')})`);
    }
    assert.ok(
      lines.some((l) => l.level === 20),
      'session debug lines were written (is-log)',
    );
    const all = capture.lines.join('');
    const secrets = {
      accessToken,
      refreshToken,
      nextAccessToken: next.accessToken,
      nextRefreshToken: next.refreshToken,
      password,
      wrongPassword: 'wrong-pass-1',
      encryptedPassword: encrypted,
      encryptedWrongPassword: wrong,
      encryptedPrefix: encrypted.slice(0, 24),
      sign,
      signSecret: SIGN_SECRET,
    };
    for (const [name, value] of Object.entries(secrets)) assert.ok(!all.includes(value), `${name} leaked into the logs`);
    // JSON-escaped forms too (a "/" in base64 is written as-is by pino, but be strict)
    assert.ok(!all.includes(JSON.stringify(encrypted).slice(1, 30)), 'encrypted password leaked (escaped)');
  });
});
