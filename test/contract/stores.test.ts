/**
 * Runs every store contract against both backends: the in-memory stores (FakeClock, no
 * waiting) and the Redis stores (real server at REDIS_URL, a fresh key prefix per test,
 * deleted afterwards). Without Redis the Redis half is skipped loudly (fails under CI=true).
 */
import type Redis from 'ioredis';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { FakeClock } from '../support/fake-clock';
import { REDIS_URL, requireRedis } from '../support/services';
import { describeAuditStoreContract } from './audit-store.contract';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';
import { describeCaptchaStoreContract } from './captcha-store.contract';
import { type MakeFixture } from './fixture';
import { describeKeyValueStoreContract } from './key-value-store.contract';
import { describeListStoreContract } from './list-store.contract';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { describeRedisStoreContracts } from './redis-contracts';
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

  describeSessionStoreContract(
    'InMemorySessionStore',
    memoryFixture((b) => b.sessions),
  );
  describeKeyValueStoreContract(
    'InMemoryKeyValueStore',
    memoryFixture((b) => b.kv),
  );
  describeListStoreContract(
    'InMemoryListStore',
    memoryFixture((b) => b.lists),
  );
  describeRateLimitStoreContract(
    'InMemoryRateLimitStore',
    memoryFixture((b) => b.rateLimits),
  );
  describeCaptchaStoreContract(
    'InMemoryCaptchaStore',
    memoryFixture((b) => b.captchas),
  );
  describeAuditStoreContract(
    'InMemoryAuditStore',
    memoryFixture((b) => b.audit),
  );
  describeWebhookOutboxContract(
    'InMemoryWebhookOutbox',
    memoryFixture((b) => b.webhooks),
  );
  describeStoreHealthContract(
    'InMemoryBackend',
    memoryFixture((b) => b),
  );
});

describe('store adapters: redis', function () {
  let client: Redis | undefined;
  let twin: Redis | undefined;

  before(async function () {
    await requireRedis(this);
    // The production factory (auto-pipelining on), so the contract covers that configuration too.
    client = createRedisClient(REDIS_URL);
    twin = createRedisClient(REDIS_URL);
  });

  after(async () => {
    await client?.quit();
    await twin?.quit();
  });

  describeRedisStoreContracts({
    label: '',
    client: () => client,
    twinClient: () => twin,
    health: () => {
      const own = createRedisClient(REDIS_URL);
      return { client: own, store: new RedisStoreHealth(own) };
    },
  });
});
