/**
 * The SessionStore contract against the Redis store behind the local session cache
 * (session.local-cache.enabled): the cache must be invisible to the port's callers. A fresh key
 * prefix and a fresh cache (with its own tracking link) per test; skipped loudly without Redis.
 */
import type Redis from 'ioredis';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { FakeClock } from '../support/fake-clock';
import { cachedSessionStore } from '../support/session-cache';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { sleep } from './fixture';
import { describeSessionStoreContract } from './session-store.contract';

describe('store adapters: redis with the local session cache', function () {
  let client: Redis | undefined;

  before(async function () {
    await requireRedis(this);
    client = createRedisClient(REDIS_URL);
  });

  after(async () => {
    await client?.quit();
  });

  describeSessionStoreContract('FencedSessionStore(CachedSessionStore) (local session cache, as wired)', async () => {
    const shared = client;
    if (shared === undefined) throw new Error('redis client not ready');
    const prefix = testKeyPrefix('cache-contract');
    const clock = new FakeClock(Date.now());
    const { store, writer } = await cachedSessionStore(shared, REDIS_URL, prefix, clock);
    return {
      store: writer,
      clock,
      elapse: async (ms) => {
        clock.advance(ms);
        await sleep(ms);
      },
      cleanup: async () => {
        await store.close();
        await deleteByPrefix(shared, prefix);
      },
    };
  });
});
