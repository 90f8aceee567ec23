/**
 * The local session cache on Redis Sentinel (master + replica + 3 Sentinels from the test support):
 * when the master is killed, the tracking link goes down with it (the cache is flushed and
 * bypassed), reconnects to the promoted replica, and keeps the cache coherent there.
 * Without redis-server it is skipped loudly (fails under CI=true).
 */
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import { LINK_NAME_PREFIX } from '../../src/adapters/redis/session-cache/create-session-cache';
import { SessionManager } from '../../src/application/session/session-manager';
import type { ConfigKey } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { testConfig } from '../support/apps';
import { sample } from '../support/prometheus';
import { requireRedisServer } from '../support/redis-server';
import { SentinelTopology } from '../support/redis-sentinel';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'sentinel-cache-pw';

describe('local session cache on Redis Sentinel: the tracking link follows a failover', function () {
  this.timeout(90_000);
  let topology: SentinelTopology;
  const opened: Infrastructure[] = [];

  before(async function () {
    await requireRedisServer(this);
    topology = await SentinelTopology.start({ password: PASSWORD });
  });

  after(async () => {
    for (const infra of opened) await infra.close().catch(() => undefined);
    topology?.stop();
  });

  function infraOf(prefix: string, overrides: Partial<Record<ConfigKey, unknown>>) {
    const config = testConfig(
      {
        'svc.redis.mode': 'sentinel',
        'svc.redis.url': '',
        'svc.redis.sentinels': topology.sentinelList,
        'svc.redis.password': PASSWORD,
        'svc.redis.command-timeout-ms': 500,
        ...overrides,
      },
      'redis',
    );
    const infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
    opened.push(infra);
    return { infra, sessions: new SessionManager('admin', config.session, infra.sessions, infra.clock) };
  }

  async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await probe().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('flushes when the master dies, tracks on the promoted replica, and sees a logout made there at once', async () => {
    const prefix = testKeyPrefix('cache-sentinel');
    const cached = infraOf(prefix, {
      'session.local-cache.enabled': true,
      'svc.redis.wait-replicas': 1,
      'svc.redis.command-timeout-ms': 2000,
    });
    const metrics = new PromMetrics({ app: 'admin' });
    cached.infra.reportSessionCache?.(metrics);
    const gauge = async () => /^authguard_session_cache_tracking\{app="admin"\} 1$/m.test((await metrics.exposition()).body);
    const linkDowns = async () =>
      sample((await metrics.exposition()).body, 'authguard_session_cache_flushes_total', { app: 'admin', reason: 'link-down' }) ?? 0;
    await until('tracking on the first master', 15_000, gauge);

    // acknowledged by the replica (WAIT)
    const { token } = await cached.sessions.login({ userId: 's1', username: 's1', roles: [], permissions: [] });
    for (let i = 0; i < 3; i++) assert.equal((await cached.sessions.resolveToken(token)).ok, true);

    const old = await topology.killMaster();
    const promoted = await topology.promotedAfter(old, 15_000);
    await until('the cache flushed and bypassed', 15_000, async () => (await linkDowns()) >= 1);
    await until('tracking on the promoted replica', 20_000, gauge);

    const onPromoted = new Redis({ host: '127.0.0.1', port: promoted, password: PASSWORD });
    try {
      const names = String(await onPromoted.client('LIST'));
      assert.match(names, new RegExp(`name=${LINK_NAME_PREFIX}:${process.pid}:[0-9a-f]+:reader `), 'the reader is on the promoted replica');
      assert.match(names, new RegExp(`name=${LINK_NAME_PREFIX}:${process.pid}:[0-9a-f]+:invalidations `));
    } finally {
      onPromoted.disconnect();
    }
    await until('the session read on the new master', 10_000, async () => (await cached.sessions.resolveToken(token)).ok);
    // Read again (from the cache once it tracks): the client may still drop one command while the failover settles.
    await until('cached again', 5_000, async () => (await cached.sessions.resolveToken(token)).ok);

    // Another instance (no cache) logs the token out on the new master: the cached one refuses it at once.
    const other = infraOf(prefix, {});
    await until('the other instance reaches the new master', 10_000, async () => (await other.sessions.logout(token)) === true);
    const after = await cached.sessions.resolveToken(token);
    assert.deepEqual(after, { ok: false, reason: 'token-invalid', tokenPresented: true });
  });
});
