/**
 * The acceptance test of the local session cache (session.local-cache.enabled=true): two app
 * processes on one Redis. A logout, kickout, role change or refresh on one instance is seen by the
 * other on the very next request after the first one answered: 1000 logout trials with 0 stale
 * successes, also while the tracking connections are killed (CLIENT KILL) mid-run, after which
 * the cache comes back (hits again); and a session the cap on concurrent sessions ends
 * (session.max-login-count, here 1 on both instances) is refused on the other instance at once:
 * 1000 logins over the cap, 0 stale. Skipped loudly without Redis (fails under CI=true).
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import Redis from 'ioredis';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { LINK_NAME_PREFIX } from '../../src/adapters/redis/session-cache/create-session-cache';
import { hashToken, tokenIdOf } from '../../src/application/session/session-token';
import { SessionManager } from '../../src/application/session/session-manager';
import type { Principal } from '../../src/domain/session';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { testConfig } from '../support/apps';
import { AppInstance, assertInstancesHealthy, sharedRedisEnv, stopInstances } from '../support/instances';
import { sample } from '../support/prometheus';
import { RawHttpConnection, type RawResponse } from '../support/raw-http';
import { REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';

interface Res {
  status: number;
  body: { code?: unknown; data?: Record<string, unknown> | null };
}

async function call(base: string, method: string, path: string, opts: { token?: string; body?: object; ip?: string } = {}): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.ip !== undefined) headers['x-forwarded-for'] = opts.ip;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${base}${path}`, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text === '' ? {} : (JSON.parse(text) as Res['body']) };
}

const ADMIN: Principal = { userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] };
const VIEWER: Principal = { userId: '2', username: 'viewer', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] };

describe('local session cache: two instances on one Redis (acceptance)', function () {
  this.timeout(180_000);
  const prefix = testKeyPrefix('cache-instances');
  let a: AppInstance;
  let b: AppInstance;
  let local: Infrastructure;
  let sessions: SessionManager;
  let redis: Redis;
  let publicKey: string;

  before(async function () {
    await requireRedis(this);
    // The instances' own logins keep one session per account (the overflow trials); the sessions made
    // in this process (`sessions`) follow the test profile's defaults.
    const env = sharedRedisEnv(prefix, { SESSION_LOCAL_CACHE_ENABLED: 'true', SESSION_MAX_LOGIN_COUNT: '1' });
    [a, b] = await Promise.all([AppInstance.start(env), AppInstance.start(env)]);
    redis = new Redis(REDIS_URL);
    for (const i of [a, b]) await until(async () => (await metricsOf(i)).tracking === 1, `instance ${i.ready.pid} tracking`);
    publicKey = String((await call(a.url('admin'), 'GET', '/auth/getConfig')).body.data?.publicKey);
    // Sessions made straight in the shared store (cache off here), as a login on a third instance would.
    const config = testConfig({}, 'redis');
    local = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
    sessions = new SessionManager('admin', config.session, local.sessions, local.clock);
  });

  after(async () => {
    redis?.disconnect();
    await stopInstances([a, b], local, prefix);
  });

  afterEach(() => assertInstancesHealthy([a, b]));

  async function until(probe: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function metricsOf(i: AppInstance) {
    const r = await fetch(`${i.url('admin')}/actuator/prometheus`);
    const text = await r.text();
    const v = (name: string, labels: Record<string, string> = {}) => sample(text, name, { app: 'admin', ...labels }) ?? 0;
    return {
      hit: v('authguard_session_cache_lookups_total', { result: 'hit' }),
      miss: v('authguard_session_cache_lookups_total', { result: 'miss' }),
      bypass: v('authguard_session_cache_lookups_total', { result: 'bypass' }),
      linkDown: v('authguard_session_cache_flushes_total', { reason: 'link-down' }),
      tracking: text.match(/^authguard_session_cache_tracking\{app="admin"\} (\d)/m)?.[1] === '1' ? 1 : 0,
    };
  }

  /** Kills the named tracking connection(s) of an instance; returns how many were killed. */
  async function kill(i: AppInstance, role: 'reader' | 'invalidations'): Promise<number> {
    const list = String(await redis.client('LIST'));
    const ids = list
      .split('\n')
      .filter((l) => new RegExp(` name=${LINK_NAME_PREFIX}:${i.ready.pid}:[0-9a-f]+:${role} `).test(l))
      .map((l) => /(?:^|\s)id=(\d+)/.exec(l)?.[1] as string);
    for (const id of ids) await redis.client('KILL', 'ID', id);
    return ids.length;
  }

  const me = (i: AppInstance, token: string) => call(i.url('admin'), 'GET', '/auth/me', { token });

  it(
    '1000 trials of logout on instance 1 then at once GET /auth/me on instance 2: 0 stale ' +
      'successes, also across CLIENT KILLs of the tracking connections; the cache comes back',
    async () => {
      const kills: Record<number, () => Promise<number>> = {
        300: () => kill(b, 'reader'),
        600: () => kill(b, 'invalidations'),
        900: async () => (await kill(a, 'reader')) + (await kill(b, 'reader')),
      };
      let stale = 0;
      const before = await metricsOf(b);
      // Bare keep-alive connections: instance 2's request is written the moment instance 1's answer starts to arrive.
      const [toA, toB] = [await RawHttpConnection.open(a.ready.admin), await RawHttpConnection.open(b.ready.admin)];
      try {
        for (let trial = 0; trial < 1000; trial++) {
          const { token } = await sessions.login(ADMIN);
          const meReq = RawHttpConnection.prepare('GET', '/auth/me', { Authorization: `Bearer ${token}` });
          assert.equal((await toB.send(meReq)).status, 200); // a miss: cached on instance 2
          assert.equal((await toB.send(meReq)).status, 200); // a hit (unless a kill just flushed it)
          const killed = kills[trial];
          if (killed !== undefined) assert.ok((await killed()) >= 1, `trial ${trial}: a tracking connection was killed`);
          let next: Promise<RawResponse> | undefined;
          const logout = await toA.send(
            RawHttpConnection.prepare('POST', '/auth/logout', { Authorization: `Bearer ${token}` }, {}),
            () => (next = toB.send(meReq)),
          );
          assert.equal(logout.status, 200, logout.body);
          const after = await (next as Promise<RawResponse>);
          if (after.status !== 401) stale++;
          else assert.equal((JSON.parse(after.body) as { code: number }).code, 40102, 'token-invalid');
        }
      } finally {
        toA.close();
        toB.close();
      }
      const end = await metricsOf(b);
      console.log(
        `      1000 logout -> /auth/me elsewhere (sent as the logout answer arrived): ${stale} stale; instance 2: ` +
          (`${end.hit - before.hit} hits, ${end.miss - before.miss} misses, ` +
            `${end.bypass - before.bypass} bypassed, ${end.linkDown - before.linkDown} link-down flushes`),
      );
      assert.equal(stale, 0);
      assert.ok(end.linkDown - before.linkDown >= 3, 'each kill flushed the cache');

      // The cache is back: tracking, and a warm token is served from it.
      await until(async () => (await metricsOf(b)).tracking === 1, 'tracking again');
      const { token } = await sessions.login(ADMIN);
      const warm = await metricsOf(b);
      for (let k = 0; k < 100; k++) assert.equal((await me(b, token)).status, 200);
      const hot = await metricsOf(b);
      assert.ok(hot.hit - warm.hit >= 99, `hit rate recovered: ${hot.hit - warm.hit} hits of 100`);
    },
  );

  it('a kickout on instance 1 answers "kicked out" on instance 2 at once (50 trials)', async () => {
    const { token: boss } = await sessions.login(ADMIN);
    for (let trial = 0; trial < 50; trial++) {
      const victim = await sessions.login(VIEWER);
      assert.equal((await me(b, victim.token)).status, 200);
      const kicked = await call(a.url('admin'), 'DELETE', `/monitor/online/${tokenIdOf(hashToken(victim.token))}`, { token: boss });
      assert.equal(kicked.status, 200, JSON.stringify(kicked.body));
      const after = await me(b, victim.token);
      assert.equal(after.status, 401);
      assert.equal(after.body.code, 40105, 'token-kicked-out');
    }
  });

  it('a role change on instance 1 is in the session instance 2 answers with at once (20 trials)', async () => {
    const { token: boss } = await sessions.login(ADMIN);
    const viewer = await sessions.login(VIEWER);
    for (let trial = 0; trial < 20; trial++) {
      const roles = trial % 2 === 0 ? ['admin'] : ['viewer'];
      assert.deepEqual((await me(b, viewer.token)).body.data?.roles, trial % 2 === 0 ? ['viewer'] : ['admin']);
      const changed = await call(a.url('admin'), 'POST', '/system/user/2/roles', { token: boss, body: { roles } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual((await me(b, viewer.token)).body.data?.roles, roles);
    }
  });

  it('a refresh on instance 1 (rotation) logs the old access token out on instance 2 at once', async () => {
    const password = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('admin123'),
    ).toString('base64');
    const login = await call(a.url('admin'), 'POST', '/auth/login', { ip: '10.88.0.1', body: { username: 'admin', password } });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const t = login.body.data as { accessToken: string; refreshToken: string };
    assert.equal((await me(b, t.accessToken)).status, 200);
    const refreshed = await call(a.url('admin'), 'POST', '/auth/refresh-token', { body: { refreshToken: t.refreshToken } });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal((await me(b, t.accessToken)).status, 401, 'the rotated access token');
    assert.equal((await me(b, String(refreshed.body.data?.accessToken))).status, 200, 'the new one');
  });

  it(
    '1000 trials of a login over the cap on instance 1 (max-login-count=1) then at once GET /auth/me on instance 2 with ' +
      'the session it ended: 0 stale successes (401 token-invalid: overflow-logout-mode LOGOUT)',
    async () => {
      const password = publicEncrypt(
        { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from('viewer123'),
      ).toString('base64');
      const loginReq = (trial: number) =>
        RawHttpConnection.prepare(
          'POST',
          '/auth/login',
          { 'X-Forwarded-For': `10.77.${Math.floor(trial / 250)}.${(trial % 250) + 1}` },
          { username: 'viewer', password },
        );
      const tokenOf = (r: RawResponse): string => {
        assert.equal(r.status, 200, r.body);
        return String((JSON.parse(r.body) as { data: { accessToken: string } }).data.accessToken);
      };
      let stale = 0;
      const [toA, toB] = [await RawHttpConnection.open(a.ready.admin), await RawHttpConnection.open(b.ready.admin)];
      try {
        let token = tokenOf(await toA.send(loginReq(0)));
        for (let trial = 1; trial <= 1000; trial++) {
          const meReq = RawHttpConnection.prepare('GET', '/auth/me', { Authorization: `Bearer ${token}` });
          assert.equal((await toB.send(meReq)).status, 200); // a miss: cached on instance 2
          assert.equal((await toB.send(meReq)).status, 200); // a hit
          let next: Promise<RawResponse> | undefined;
          const login = await toA.send(loginReq(trial), () => (next = toB.send(meReq)));
          const after = await (next as Promise<RawResponse>);
          if (after.status !== 401) stale++;
          else assert.equal((JSON.parse(after.body) as { code: number }).code, 40102, 'token-invalid');
          token = tokenOf(login);
        }
      } finally {
        toA.close();
        toB.close();
      }
      console.log(
        `      1000 logins over the cap -> /auth/me elsewhere with the session ended (sent as the login answer arrived): ${stale} stale`,
      );
      assert.equal(stale, 0);
    },
  );
});
