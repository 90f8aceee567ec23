/**
 * The store contracts on Redis Sentinel: a real master + replica + 3 Sentinels started by the test
 * support, the stores on the production client in sentinel mode (ioredis finds the master through
 * the Sentinels). Without redis-server the suite is skipped loudly (fails under CI=true).
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisCaptchaStore } from '../../src/adapters/redis/captcha-store';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { RedisListStore } from '../../src/adapters/redis/list-store';
import { RedisRateLimitStore } from '../../src/adapters/redis/rate-limit-store';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { FakeClock } from '../support/fake-clock';
import { requireRedisServer } from '../support/redis-server';
import { MASTER_NAME, SentinelTopology } from '../support/redis-sentinel';
import { deleteByPrefix, testKeyPrefix } from '../support/services';
import { type MakeFixture, sleep } from './fixture';
import { describeCaptchaStoreContract } from './captcha-store.contract';
import { describeKeyValueStoreContract } from './key-value-store.contract';
import { describeListStoreContract } from './list-store.contract';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { describeSessionStoreContract } from './session-store.contract';
import { describeStoreHealthContract } from './store-health.contract';

const PASSWORD = 'sentinel-contract-pw';

describe('store adapters: redis sentinel (master + replica + 3 sentinels)', function () {
  this.timeout(30_000);
  let topology: SentinelTopology | undefined;
  let client: Redis | undefined;
  const sentinelClient = (): Redis => {
    if (topology === undefined) throw new Error('sentinel topology not started');
    return createRedisClient({ mode: 'sentinel', sentinels: topology.sentinels, masterName: MASTER_NAME, password: PASSWORD });
  };

  before(async function () {
    await requireRedisServer(this);
    topology = await SentinelTopology.start({ password: PASSWORD });
    client = sentinelClient();
  });
  after(async () => {
    await client?.quit().catch(() => undefined);
    topology?.stop();
  });

  function fixture<S>(make: (client: Redis, keyPrefix: string) => S): MakeFixture<S> {
    return async () => {
      if (client === undefined) throw new Error('redis client not ready');
      const shared = client;
      const prefix = testKeyPrefix('sentinel');
      const clock = new FakeClock(Date.now());
      return {
        store: make(shared, prefix),
        clock,
        elapse: async (ms) => {
          clock.advance(ms);
          await sleep(ms);
        },
        cleanup: () => deleteByPrefix(shared, prefix),
      };
    };
  }

  it('the client reached the master the Sentinels name', async () => {
    assert.ok(client && topology);
    const role = (await client.call('ROLE')) as [string];
    assert.equal(role[0], 'master');
    assert.equal(client.stream.remotePort, await topology.masterPort());
  });

  describeSessionStoreContract('RedisSessionStore on Sentinel', fixture((c, p) => new RedisSessionStore(c, p)));
  describeKeyValueStoreContract('RedisKeyValueStore on Sentinel', fixture((c, p) => new RedisKeyValueStore(c, p)));
  describeListStoreContract('RedisListStore on Sentinel', fixture((c, p) => new RedisListStore(c, p)));
  describeRateLimitStoreContract('RedisRateLimitStore on Sentinel', fixture((c, p) => new RedisRateLimitStore(c, p)));
  describeCaptchaStoreContract('RedisCaptchaStore on Sentinel', fixture((c, p) => new RedisCaptchaStore(c, p)));
  describeStoreHealthContract('RedisStoreHealth on Sentinel', async () => {
    const own = sentinelClient();
    return {
      store: new RedisStoreHealth(own, { mode: 'sentinel' }),
      clock: new FakeClock(Date.now()),
      elapse: sleep,
      cleanup: async () => {
        if (own.status !== 'end') own.disconnect();
      },
    };
  });

  describe('health details', () => {
    it('report the mode, the master and what each Sentinel says', async () => {
      assert.ok(client && topology);
      const t = topology;
      const health = new RedisStoreHealth(client, { mode: 'sentinel', probeSentinels: { sentinels: t.sentinels, masterName: MASTER_NAME, timeoutMs: 1000 } });
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
        probeSentinels: { sentinels: [...topology!.sentinels.slice(0, 1), { host: '127.0.0.1', port: 1 }], masterName: 'no-such-master', timeoutMs: 500 },
      });
      const r = await health.ping();
      assert.equal(r.up, false, 'no master known');
      assert.match(r.detail ?? '', /no Sentinel knows a master/);
      const views = (r.details as { sentinels: Array<{ reachable: boolean; master: string | null }> }).sentinels;
      assert.deepEqual(views.map((v) => [v.reachable, v.master]), [[true, null], [false, null]]);
    });
  });
});
