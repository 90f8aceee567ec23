/**
 * The store contracts on Redis Sentinel: a real master + replica + 3 Sentinels started by the test
 * support, the stores on the production client in sentinel mode (ioredis finds the master through
 * the Sentinels). Without redis-server the suite is skipped loudly (fails under CI=true).
 */
import type Redis from 'ioredis';
import assert from 'node:assert/strict';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { MASTER_NAME, SentinelTopology } from '../support/redis-sentinel';
import { requireRedisServer } from '../support/redis-server';
import { describeRedisStoreContracts } from './redis-contracts';

const PASSWORD = 'sentinel-contract-pw';

describe('store adapters: redis sentinel (master + replica + 3 sentinels)', function () {
  this.timeout(30_000);
  let topology: SentinelTopology | undefined;
  let client: Redis | undefined;
  let twin: Redis | undefined;
  const sentinelClient = (): Redis => {
    if (topology === undefined) throw new Error('sentinel topology not started');
    return createRedisClient({ mode: 'sentinel', sentinels: topology.sentinels, masterName: MASTER_NAME, password: PASSWORD });
  };

  before(async function () {
    await requireRedisServer(this);
    topology = await SentinelTopology.start({ password: PASSWORD });
    client = sentinelClient();
    twin = sentinelClient();
  });
  after(async () => {
    await client?.quit().catch(() => undefined);
    await twin?.quit().catch(() => undefined);
    topology?.stop();
  });

  it('the client reached the master the Sentinels name', async () => {
    assert.ok(client && topology);
    const role = (await client.call('ROLE')) as [string];
    assert.equal(role[0], 'master');
    assert.equal(client.stream.remotePort, await topology.masterPort());
  });

  describeRedisStoreContracts({
    label: ' on Sentinel',
    client: () => client,
    twinClient: () => twin,
    health: () => {
      const own = sentinelClient();
      return { client: own, store: new RedisStoreHealth(own, { mode: 'sentinel' }) };
    },
  });

  describe('health details', () => {
    it('report the mode, the master and what each Sentinel says', async () => {
      assert.ok(client && topology);
      const t = topology;
      const health = new RedisStoreHealth(client, {
        mode: 'sentinel',
        probeSentinels: { sentinels: t.sentinels, masterName: MASTER_NAME, timeoutMs: 1000 },
      });
      const r = await health.ping();
      assert.equal(r.up, true);
      const master = `127.0.0.1:${await t.masterPort()}`;
      assert.deepEqual(r.details, {
        mode: 'sentinel',
        master: { address: master, reachable: true },
        sentinels: t.sentinelPorts.map((p) => ({ address: `127.0.0.1:${p}`, reachable: true, master })),
      });
    });

    it('report an unreachable Sentinel, and DOWN when the reachable ones know no master', async () => {
      assert.ok(client);
      const health = new RedisStoreHealth(client, {
        mode: 'sentinel',
        probeSentinels: {
          sentinels: [...topology!.sentinels.slice(0, 1), { host: '127.0.0.1', port: 1 }],
          masterName: 'no-such-master',
          timeoutMs: 500,
        },
      });
      const r = await health.ping();
      assert.equal(r.up, false, 'no master known');
      assert.match(r.detail ?? '', /no Sentinel knows a master/);
      const views = (r.details as { sentinels: Array<{ reachable: boolean; master: string | null }> }).sentinels;
      assert.deepEqual(
        views.map((v) => [v.reachable, v.master]),
        [
          [true, null],
          [false, null],
        ],
      );
    });
  });
});
