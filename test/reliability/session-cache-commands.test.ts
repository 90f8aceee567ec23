/**
 * Redis commands per authenticated request with the local session cache warm, counted with
 * INFO commandstats on a redis-server of this test's own (so nobody else's commands are counted):
 * at most 0.05 (only misses, the deferred last-active writes and the link's heartbeat reach Redis).
 * Not timed. Also: a FLUSHDB (of any database) flushes the cache, which stays in use.
 * Skipped loudly without the redis-server binary (fails under CI=true).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { ConfigKey } from '../../src/main/config';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { testConfig } from '../support/apps';
import { sample } from '../support/prometheus';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

/** Calls per command since the last CONFIG RESETSTAT, INFO and CONFIG excluded. */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([a-z|_-]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info' && !m[1]?.startsWith('config')) out[m[1] as string] = Number(m[2]);
  }
  return out;
}

describe('local session cache: Redis commands per authenticated request, warm', function () {
  this.timeout(120_000);
  let server: DisposableRedis;
  let admin: Redis;
  const opened: Array<{ infra: Infrastructure; http: http.Server }> = [];

  before(async function () {
    await requireRedisServer(this);
    server = await DisposableRedis.create();
    admin = new Redis(server.url);
  });

  after(async () => {
    for (const o of opened) {
      o.http.close();
      await o.infra.close();
    }
    admin?.disconnect();
    await server?.kill();
  });

  async function start(overrides: Partial<Record<ConfigKey, unknown>>) {
    const config = testConfig(
      // The online index sweeper's background ticks are no request's commands: off while they are counted.
      {
        'svc.redis.url': server.url,
        'session.local-cache.enabled': true,
        'svc.captcha.enabled': false,
        'svc.redis.index-sweep-ms': 0,
        ...overrides,
      },
      'redis',
    );
    const infra = createInfrastructure(config, { log: silentLogger });
    const built = buildAdminApp(config, infra);
    const srv = http.createServer(built.app.callback());
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    opened.push({ infra, http: srv });
    const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    const { token } = await built.container
      .get(SessionManagers)
      .get('admin')
      .login({ userId: 'c1', username: 'c1', roles: ['viewer'], permissions: ['system:user:list'] });
    const metric = async (result: string) =>
      sample(await (await fetch(`${base}/actuator/prometheus`)).text(), 'authguard_session_cache_lookups_total', {
        app: 'admin',
        result,
      }) ?? 0;
    const tracking = async () =>
      /^authguard_session_cache_tracking\{app="admin"\} 1$/m.test(await (await fetch(`${base}/actuator/prometheus`)).text());
    for (let i = 0; i < 100 && !(await tracking()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(await tracking(), 'the tracking link is up');
    return { base, token, metric, tracking };
  }

  async function measure(base: string, token: string, n: number): Promise<{ perRequest: number; calls: Record<string, number> }> {
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${base}/system/user/list`, { headers })).status, 200); // warm
    await admin.config('RESETSTAT');
    for (let i = 0; i < n; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}/system/user/list`, { headers })));
      for (const r of batch) assert.equal(r.status, 200);
    }
    const calls = await commandCalls(admin);
    return { perRequest: Object.values(calls).reduce((a, b) => a + b, 0) / n, calls };
  }

  for (const [label, activeTimeout] of [
    ['idle timeout off', -1],
    ['session.active-timeout=60', 60],
  ] as const) {
    it(`≤ 0.05 with ${label} (2000 requests on one warm session)`, async () => {
      const { base, token, metric } = await start({ 'session.active-timeout': activeTimeout });
      const hitsBefore = await metric('hit');
      const { perRequest, calls } = await measure(base, token, 2000);
      console.log(`      ${label}: ${perRequest.toFixed(4)} Redis commands per request (${JSON.stringify(calls)})`);
      assert.ok(perRequest <= 0.05, `${perRequest} commands per request: ${JSON.stringify(calls)}`);
      assert.ok((await metric('hit')) - hitsBefore >= 2000, 'every request was a hit');
    });
  }

  it('a FLUSHDB of another database empties the cache (a null invalidation), which stays in use', async () => {
    const { base, token, metric, tracking } = await start({});
    const headers = { authorization: `Bearer ${token}` };
    assert.equal((await fetch(`${base}/auth/me`, { headers })).status, 200);
    const other = new Redis(`${server.url}/3`);
    await other.set('x', '1');
    await other.flushdb();
    other.disconnect();
    await new Promise((r) => setTimeout(r, 50));
    const text = await (await fetch(`${base}/actuator/prometheus`)).text();
    assert.equal(sample(text, 'authguard_session_cache_flushes_total', { app: 'admin', reason: 'server-flush' }), 1);
    assert.ok(await tracking());
    const misses = await metric('miss');
    assert.equal((await fetch(`${base}/auth/me`, { headers })).status, 200);
    assert.equal((await metric('miss')) - misses, 1, 'read again after the flush');
  });
});
