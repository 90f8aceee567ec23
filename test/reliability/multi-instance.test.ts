/**
 * Exactness across instances: two app processes (test/support/app-process.ts) on one Redis, one
 * key prefix, one RSA key. Every limit and every single-use value must hold across both, because
 * a load balancer spreads one client's requests over them.
 */
import assert from 'node:assert/strict';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { hashToken, tokenIdOf } from '../../src/application/session/session-token';
import { SessionManager } from '../../src/application/session/session-manager';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { testConfig } from '../support/apps';
import { AppInstance, assertInstancesHealthy, sharedRedisEnv, stopInstances } from '../support/instances';
import { requireRedis, testKeyPrefix } from '../support/services';

interface Res {
  status: number;
  body: Record<string, unknown> & { code?: unknown; data?: Record<string, unknown> | null };
}

async function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | object } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const r = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : (JSON.parse(text) as Res['body']) };
}

const count = (rs: readonly Res[], status: number): number => rs.filter((r) => r.status === status).length;
const codes = (rs: readonly Res[]): string => [...new Set(rs.map((r) => `${r.status}:${String(r.body.code)}`))].join(', ');

const SIGN_APP = 'partner';
const SIGN_SECRET = 'multi-instance-secret-0123456789';

describe('exactness across two instances on one Redis', function () {
  this.timeout(90_000);
  const prefix = testKeyPrefix('multi');
  let a: AppInstance;
  let b: AppInstance;
  let publicKey: string;
  let local: Infrastructure;
  let web: SessionManager;
  let ipSeq = 0;
  /** A client IP no other test of this suite uses (the login limit is 5 per minute per IP). */
  const freshIp = () => `10.77.${++ipSeq}.1`;
  const oaep = (text: string) =>
    publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text)).toString('base64');
  const both = () => [a, b] as const;
  const pick = (i: number) => (i % 2 === 0 ? a : b);

  async function login(via: AppInstance, username: string, password: string, ip = freshIp()) {
    const r = await call(via.url('admin'), 'POST', '/auth/login', {
      headers: { 'x-forwarded-for': ip },
      body: { username, password: oaep(password) },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { accessToken: string; refreshToken: string };
  }
  const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

  before(async function () {
    await requireRedis(this);
    const env = sharedRedisEnv(prefix, { SVC_SECURITY_SIGN_APPS: JSON.stringify({ [SIGN_APP]: SIGN_SECRET }) });
    [a, b] = await Promise.all([AppInstance.start(env), AppInstance.start(env)]);
    const keys = await Promise.all(both().map((i) => call(i.url('admin'), 'GET', '/auth/getConfig')));
    publicKey = String(keys[0]?.body.data?.publicKey);
    assert.equal(keys[1]?.body.data?.publicKey, publicKey, 'both instances publish the same RSA key');
    // The web app has no login route yet: web sessions are created straight in the shared store.
    const config = testConfig({}, 'redis');
    local = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
    web = new SessionManager('web', config.session, local.sessions, local.clock);
  });

  after(async () => {
    await stopInstances([a, b], local, prefix);
  });

  afterEach(() => assertInstancesHealthy([a, b]));

  it('20 concurrent logins from one client IP spread over both: exactly 5 accepted, 15 rate-limited', async () => {
    const ip = freshIp();
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(pick(i).url('admin'), 'POST', '/auth/login', {
          headers: { 'x-forwarded-for': ip },
          body: { username: 'admin', password: oaep('admin123') },
        }),
      ),
    );
    assert.equal(count(rs, 200), 5, codes(rs));
    assert.equal(count(rs, 429), 15, codes(rs));
    assert.ok(rs.filter((r) => r.status === 429).every((r) => r.body.code === 42900));
    // Every accepted token is valid on both instances.
    for (const r of rs.filter((x) => x.status === 200)) {
      const token = String(r.body.data?.accessToken);
      for (const i of both()) assert.equal((await call(i.url('admin'), 'GET', '/auth/me', { headers: bearer(token) })).status, 200);
    }
  });

  it('a signed request accepted by one instance is a replay on the other (and on the other app)', async () => {
    const body = JSON.stringify({ transfer: 1 });
    const ts = String(Date.now());
    const nonce = randomBytes(12).toString('hex');
    const headers = {
      'x-app-key': SIGN_APP,
      'x-timestamp': ts,
      'x-nonce': nonce,
      'x-sign': createHmac('sha256', SIGN_SECRET)
        .update(SIGN_APP + ts + nonce + body)
        .digest('hex'),
    };
    const first = await call(a.url('admin'), 'POST', '/open/echo', { headers, body });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const replay = await call(b.url('admin'), 'POST', '/open/echo', { headers, body });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.code, 40123, 'sign-nonce-replayed');
    const otherApp = await call(b.url('web'), 'POST', '/open/echo', { headers, body });
    assert.equal(otherApp.status, 401);
    assert.equal(otherApp.body.code, 'sign-nonce-replayed');
  });

  it('a logout on one instance: the token and its refresh token are rejected by the other at once', async () => {
    const t = await login(a, 'admin', 'admin123');
    assert.equal((await call(b.url('admin'), 'GET', '/auth/me', { headers: bearer(t.accessToken) })).status, 200);
    assert.equal((await call(a.url('admin'), 'POST', '/auth/logout', { headers: bearer(t.accessToken) })).status, 200);
    const me = await call(b.url('admin'), 'GET', '/auth/me', { headers: bearer(t.accessToken) });
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 40102, 'token-invalid');
    const refreshed = await call(b.url('admin'), 'POST', '/auth/refresh-token', { body: { refreshToken: t.refreshToken } });
    assert.equal(refreshed.status, 401);
  });

  it('a kickout on one instance: the token answers "kicked out" on the other at once (admin and web)', async () => {
    const boss = await login(b, 'admin', 'admin123');
    const victim = await login(a, 'viewer', 'viewer123');
    assert.equal((await call(b.url('admin'), 'GET', '/auth/me', { headers: bearer(victim.accessToken) })).status, 200);
    const tokenId = tokenIdOf(hashToken(victim.accessToken));
    const kicked = await call(a.url('admin'), 'DELETE', `/monitor/online/${tokenId}`, { headers: bearer(boss.accessToken) });
    assert.equal(kicked.status, 200, JSON.stringify(kicked.body));
    const me = await call(b.url('admin'), 'GET', '/auth/me', { headers: bearer(victim.accessToken) });
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 40105, 'token-kicked-out');
    assert.equal((await call(b.url('admin'), 'POST', '/auth/refresh-token', { body: { refreshToken: victim.refreshToken } })).status, 401);

    // web: a session kicked out through the shared store is refused by both web apps
    const w = await web.login({ userId: 'w-kick', username: 'w-kick', roles: [], permissions: [] });
    for (const i of both()) assert.equal((await call(i.url('web'), 'GET', '/user/profile', { headers: bearer(w.token) })).status, 200);
    await web.kickoutTokenId(w.tokenId);
    for (const i of both()) {
      const r = await call(i.url('web'), 'GET', '/user/profile', { headers: bearer(w.token) });
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'token-kicked-out');
    }
  });

  describe('50 concurrent duplicate submissions spread over both: exactly one record', () => {
    it('PARAM: admin POST /examples/notices', async () => {
      const t = await login(a, 'admin', 'admin123');
      const title = `notice-${randomBytes(4).toString('hex')}`;
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(pick(i).url('admin'), 'POST', '/examples/notices', { headers: bearer(t.accessToken), body: { title } }),
        ),
      );
      assert.equal(count(rs, 201), 1, codes(rs));
      assert.equal(count(rs, 409), 49, codes(rs));
      assert.ok(rs.filter((r) => r.status === 409).every((r) => r.body.code === 40910));
      for (const i of both()) {
        const list = await call(i.url('admin'), 'GET', '/examples/notices', { headers: bearer(t.accessToken) });
        assert.equal((list.body.data as unknown as unknown[]).length, 1, 'one record, seen by both instances');
      }
    });

    it('PARAM: admin POST /system/user (one double-clicked form, one ciphertext)', async () => {
      const t = await login(b, 'admin', 'admin123');
      const totals = async () => {
        const ts = await Promise.all(
          both().map((i) => call(i.url('admin'), 'GET', '/system/user/list?pageSize=500', { headers: bearer(t.accessToken) })),
        );
        return ts.reduce((n, r) => n + Number(r.body.data?.total), 0);
      };
      const before = await totals();
      const form = { username: `dup${randomBytes(3).toString('hex')}`, password: oaep('Secret-pass-123'), roles: ['viewer'] };
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(pick(i).url('admin'), 'POST', '/system/user', { headers: bearer(t.accessToken), body: form }),
        ),
      );
      assert.equal(count(rs, 200), 1, codes(rs));
      assert.equal(count(rs, 409), 49, codes(rs));
      assert.ok(rs.filter((r) => r.status === 409).every((r) => r.body.code === 40910));
      // Users created over HTTP live in the directory of the instance that created them (memory directory).
      assert.equal(await totals(), before + 1);
    });

    it('TOKEN: web POST /orders with one X-Idempotent-Token', async () => {
      const w = await web.login({ userId: `w-${randomBytes(3).toString('hex')}`, username: 'w', roles: [], permissions: [] });
      const issued = await call(a.url('web'), 'GET', '/idempotent/token');
      const token = String(issued.body.token);
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(pick(i).url('web'), 'POST', '/orders', {
            headers: { ...bearer(w.token), 'x-idempotent-token': token },
            body: { item: 'book', quantity: 1 },
          }),
        ),
      );
      assert.equal(count(rs, 201), 1, codes(rs));
      assert.equal(count(rs, 409), 49, codes(rs));
      for (const i of both()) {
        const list = await call(i.url('web'), 'GET', '/orders', { headers: bearer(w.token) });
        assert.equal((list.body as unknown as unknown[]).length, 1);
      }
    });

    it('HEADER: web POST /payments with one Idempotency-Key: one execution, the rest in progress or replayed', async () => {
      const w = await web.login({ userId: `w-${randomBytes(3).toString('hex')}`, username: 'w', roles: [], permissions: [] });
      const key = randomBytes(16).toString('hex');
      const rs = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(pick(i).url('web'), 'POST', '/payments', {
            headers: { ...bearer(w.token), 'idempotency-key': key },
            body: { amount: 100, currency: 'EUR' },
          }),
        ),
      );
      assert.equal(count(rs, 201) + count(rs, 409), 50, codes(rs));
      assert.ok(count(rs, 201) >= 1);
      assert.ok(
        rs.filter((r) => r.status === 409).every((r) => r.body.code === 'idempotency-in-progress'),
        codes(rs),
      );
      const ids = new Set(rs.filter((r) => r.status === 201).map((r) => String(r.body.id)));
      assert.equal(ids.size, 1, 'every 201 is the same record (replayed)');
      for (const i of both()) {
        const list = await call(i.url('web'), 'GET', '/payments', { headers: bearer(w.token) });
        assert.equal((list.body as unknown as unknown[]).length, 1);
      }
    });
  });

  it('20 concurrent refreshes with one refresh token spread over both: exactly one success', async () => {
    const t = await login(a, 'admin', 'admin123');
    const started = Date.now();
    const rs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(pick(i).url('admin'), 'POST', '/auth/refresh-token', { body: { refreshToken: t.refreshToken } }),
      ),
    );
    const elapsed = Date.now() - started;
    assert.equal(count(rs, 200), 1, codes(rs));
    // Within the 2 s grace a second presentation is a concurrent duplicate: 401 refresh-token-invalid,
    // the family untouched (RefreshTokenRegistry.consume). Later ones would be reuse and revoke it.
    assert.ok(elapsed < 2000, `the 20 refreshes took ${elapsed} ms, beyond the 2 s grace`);
    assert.ok(
      rs.filter((r) => r.status !== 200).every((r) => r.status === 401 && r.body.code === 40111),
      codes(rs),
    );
    const next = rs.find((r) => r.status === 200)?.body.data as { accessToken: string; refreshToken: string };
    for (const i of both()) {
      assert.equal(
        (await call(i.url('admin'), 'GET', '/auth/me', { headers: bearer(next.accessToken) })).status,
        200,
        'the winner keeps its login',
      );
      assert.equal(
        (await call(i.url('admin'), 'GET', '/auth/me', { headers: bearer(t.accessToken) })).status,
        401,
        'the rotated access token is logged out',
      );
    }
    const again = await call(b.url('admin'), 'POST', '/auth/refresh-token', { body: { refreshToken: next.refreshToken } });
    assert.equal(again.status, 200, 'the new refresh token rotates normally');
  });
});
