/**
 * Runs every store contract against both backends: the in-memory stores (FakeClock, no
 * waiting) and the Redis stores (real server at REDIS_URL, a fresh key prefix per test,
 * deleted afterwards). Without Redis the Redis half is skipped loudly (fails under CI=true).
 */
import type Redis from 'ioredis';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisCaptchaStore } from '../../src/adapters/redis/captcha-store';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { RedisListStore } from '../../src/adapters/redis/list-store';
import { RedisRateLimitStore } from '../../src/adapters/redis/rate-limit-store';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { FakeClock } from '../support/fake-clock';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { type MakeFixture, sleep } from './fixture';
import { describeCaptchaStoreContract } from './captcha-store.contract';
import { describeKeyValueStoreContract } from './key-value-store.contract';
import { describeListStoreContract } from './list-store.contract';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { describeSessionStoreContract } from './session-store.contract';
import { describeStoreHealthContract } from './store-health.contract';

describe('store adapters: memory', () => {
  /** A store of a fresh backend on a FakeClock; its TTLs run on that clock, so elapse() never waits. */
  function memoryFixture<S>(pick: (backend: InMemoryBackend) => S): MakeFixture<S> {
    return async () => {
      const clock = new FakeClock();
      const backend = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
      return {
        store: pick(backend),
        clock,
        elapse: async (ms) => clock.advance(ms),
        cleanup: () => backend.close(),
      };
    };
  }

  describeSessionStoreContract('InMemorySessionStore', memoryFixture((b) => b.sessions));
  describeKeyValueStoreContract('InMemoryKeyValueStore', memoryFixture((b) => b.kv));
  describeListStoreContract('InMemoryListStore', memoryFixture((b) => b.lists));
  describeRateLimitStoreContract('InMemoryRateLimitStore', memoryFixture((b) => b.rateLimits));
  describeCaptchaStoreContract('InMemoryCaptchaStore', memoryFixture((b) => b.captchas));
  describeStoreHealthContract('InMemoryBackend', memoryFixture((b) => b));
});

describe('store adapters: redis', function () {
  let client: Redis | undefined;

  before(async function () {
    await requireRedis(this);
    // The production factory (auto-pipelining on), so the contract covers that configuration too.
    client = createRedisClient(REDIS_URL);
  });

  after(async () => {
    await client?.quit();
  });

  /**
   * A store under a fresh prefix on the shared client. Redis TTLs run on real time, so elapse()
   * also sleeps; the FakeClock starts at the real time and only drives the `now` arguments.
   */
  function redisFixture<S>(make: (client: Redis, keyPrefix: string) => S): MakeFixture<S> {
    return async () => {
      if (client === undefined) throw new Error('redis client not ready');
      const shared = client;
      const prefix = testKeyPrefix('contract');
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

  describeSessionStoreContract('RedisSessionStore', redisFixture((c, p) => new RedisSessionStore(c, p)));
  describeKeyValueStoreContract('RedisKeyValueStore', redisFixture((c, p) => new RedisKeyValueStore(c, p)));
  describeListStoreContract('RedisListStore', redisFixture((c, p) => new RedisListStore(c, p)));
  describeRateLimitStoreContract('RedisRateLimitStore', redisFixture((c, p) => new RedisRateLimitStore(c, p)));
  describeCaptchaStoreContract('RedisCaptchaStore', redisFixture((c, p) => new RedisCaptchaStore(c, p)));
  // close() quits the client, so the health contract gets a client of its own.
  describeStoreHealthContract('RedisStoreHealth', async () => {
    const own = createRedisClient(REDIS_URL);
    return {
      store: new RedisStoreHealth(own),
      clock: new FakeClock(Date.now()),
      elapse: sleep,
      cleanup: async () => {
        if (own.status !== 'end') own.disconnect();
      },
    };
  });
});
