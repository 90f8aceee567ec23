/**
 * The service's infrastructure in svc.redis.mode=cluster (configured from SVC_REDIS_MODE /
 * SVC_REDIS_NODES) on a real 3-master / 3-replica cluster: the stores on the cluster client,
 * called at once after the start; health; replica WAIT; no write fence.
 * Skipped loudly without redis-server / redis-cli (fails under CI=true).
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { isDomainError } from '../../src/domain/errors';
import type { ConfigKey } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import request from 'supertest';
import { buildBoth, clusterTestConfig } from '../support/apps';
import { RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'cluster-service-pw';

describe("the service's infrastructure on Redis Cluster (svc.redis.mode=cluster)", function () {
  this.timeout(60_000);
  let cluster: RedisCluster | undefined;
  const opened: Infrastructure[] = [];

  before(async function () {
    await requireRedisCluster(this);
    cluster = await RedisCluster.start({ password: PASSWORD });
  });
  after(async () => {
    for (const infra of opened) await infra.close().catch(() => undefined);
    await cluster?.stop();
  });

  function infraOn(overrides: Partial<Record<ConfigKey, unknown>> = {}) {
    assert.ok(cluster);
    const prefix = testKeyPrefix('cluster-service');
    const config = clusterTestConfig(cluster, { 'svc.crypto.worker-threads': 1, ...overrides });
    const infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
    opened.push(infra);
    return { infra, prefix, config };
  }

  it(
    'the stores answer from the first call after the start (it waits for the cluster client), ' + 'and their keys spread over every master',
    async () => {
      assert.ok(cluster);
      const { infra, prefix } = infraOn();
      await infra.kv.set('first', 'v', 60_000);
      assert.equal(await infra.kv.get('first'), 'v');
      for (let i = 0; i < 60; i++) await infra.kv.set(`k${i}`, String(i), 60_000);
      assert.equal((await infra.kv.increment('k7', 60_000)).count, 8);
      assert.equal((await infra.rateLimits.hit('ip:1', 1, 60_000, Date.now())).allowed, true);
      assert.equal((await infra.rateLimits.hit('ip:1', 1, 60_000, Date.now())).allowed, false);
      await infra.captchas.save('login', 'u1', { answer: '42', expiresAt: Date.now() + 60_000 }, 60_000);
      assert.equal((await infra.captchas.take('login', 'u1'))?.answer, '42');
      await infra.lists.append('recent', 'a', 10, 60_000);
      assert.deepEqual(await infra.lists.list('recent'), ['a']);
      const perMaster = [...(await cluster.keysPerMaster(prefix)).values()];
      assert.ok(perMaster.length === 3 && perMaster.every((n) => n > 0), `keys on every master: ${perMaster.join(', ')}`);
    },
  );

  it(
    '/actuator/health: readiness UP once the client is ready; the store component shows the ' + 'mode, cluster_state and every node',
    async () => {
      assert.ok(cluster);
      const { infra, config } = infraOn();
      const admin = () => request(buildBoth(config, infra).admin.app.callback());
      for (let i = 0; i < 50 && (await admin().get('/actuator/health/readiness')).status !== 200; i++)
        await new Promise((r) => setTimeout(r, 100));
      await admin().get('/actuator/health/readiness').expect(200);
      const store = (await admin().get('/actuator/health').expect(200)).body.components.store;
      assert.equal(store.status, 'UP');
      assert.equal(store.details.mode, 'cluster');
      assert.equal(store.details.clusterState, 'ok');
      assert.equal(store.details.nodes.length, 6);
      assert.deepEqual(store.details.nodes.map((n: { role: string }) => n.role).sort(), [
        'master',
        'master',
        'master',
        'replica',
        'replica',
        'replica',
      ]);
    },
  );

  it(
    'svc.redis.wait-replicas=1: each acknowledged write is followed by WAIT on every master, ' +
      'and is on a replica when the call returns',
    async () => {
      assert.ok(cluster);
      const { infra, prefix } = infraOn({ 'svc.redis.wait-replicas': 1 });
      assert.equal(await infra.kv.get('warm-up'), null);
      await cluster.resetCommandStats();
      for (let i = 0; i < 20; i++) await infra.kv.set(`w${i}`, 'v', 60_000);
      const replicated = [...(await cluster.keysPerMaster(prefix, 'replicas')).values()].reduce((a, b) => a + b, 0);
      const stats = await cluster.commandStats();
      assert.equal(stats.set, 20);
      assert.equal(stats.wait, 60, 'one WAIT per master per write');
      assert.equal(replicated, 20);
    },
  );

  it('session writes are not fenced on a cluster: a login, a logout and a kickout send no PING', async () => {
    assert.ok(cluster);
    const { infra, config } = infraOn();
    const sessions = buildBoth(config, infra).admin.container.get(SessionManagers).get('admin');
    const principal = { userId: 'fence-1', username: 'fence', roles: ['viewer'], permissions: [] };
    const warm = await sessions.login(principal);
    await cluster.resetCommandStats();
    const a = await sessions.login(principal);
    await sessions.login(principal);
    assert.equal(await sessions.logout(a.token), true);
    assert.equal(await sessions.kickoutUser('fence-1'), 2);
    assert.equal((await sessions.resolveToken(warm.token)).ok, false);
    const stats = await cluster.commandStats('all');
    assert.ok(
      Object.keys(stats).some((c) => c.startsWith('eval')),
      JSON.stringify(stats),
    );
    assert.equal(stats.ping ?? 0, 0, `no write fence: ${JSON.stringify(stats)}`);
  });

  it('more replicas asked for than a master has: the acknowledged write fails closed (store-unavailable), reads still work', async () => {
    const { infra } = infraOn({ 'svc.redis.wait-replicas': 2, 'svc.redis.command-timeout-ms': 500 });
    await assert.rejects(infra.kv.set('too-few', 'v', 60_000), (e: unknown) => isDomainError(e) && e.reason === 'store-unavailable');
    assert.equal(await infra.kv.get('too-few'), 'v', 'the write itself is on the master (harmless: nobody was told it succeeded)');
  });
});
