/**
 * Every store contract against the Redis stores, for one Redis deployment (standalone,
 * Sentinel or Cluster): the stores share one client, each test gets a fresh key prefix (deleted afterwards);
 * Redis TTLs run on real time, so elapse() also sleeps, while the FakeClock (started at the real
 * time) drives the `now` arguments. The health contract gets a client of its own (close() quits it).
 */
import { RedisAuditStore } from '../../src/adapters/redis/audit-store';
import { RedisWebhookOutbox } from '../../src/adapters/redis/webhook-outbox';
import { RedisCaptchaStore } from '../../src/adapters/redis/captcha-store';
import type { KeyLayoutKind } from '../../src/adapters/redis/key-layout';
import type { RedisClient } from '../../src/adapters/redis/redis-client';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { RedisListStore } from '../../src/adapters/redis/list-store';
import { RedisRateLimitStore } from '../../src/adapters/redis/rate-limit-store';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { FakeClock } from '../support/fake-clock';
import { deleteByPrefix, testKeyPrefix } from '../support/services';
import { describeAuditStoreContract } from './audit-store.contract';
import { describeWebhookOutboxContract } from './webhook-outbox.contract';
import { describeCaptchaStoreContract } from './captcha-store.contract';
import { type MakeFixture, sleep } from './fixture';
import { describeKeyValueStoreContract } from './key-value-store.contract';
import { describeListStoreContract } from './list-store.contract';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { describeSessionStoreContract } from './session-store.contract';
import { describeStoreHealthContract } from './store-health.contract';

interface HealthOnOwnClient {
  readonly client: RedisClient;
  readonly store: RedisStoreHealth;
}

export interface RedisDeployment {
  /** Appended to each suite's name, e.g. " on Sentinel". */
  readonly label: string;
  /** The shared client (created in the caller's `before`). */
  readonly client: () => RedisClient | undefined;
  /** A second client to the same deployment: the session store's twin (another instance's store). */
  readonly twinClient: () => RedisClient | undefined;
  /** The key layout to use (default: the one the client needs). */
  readonly layout?: KeyLayoutKind;
  /** A new client for the health contract, and the health store built on it (once it can answer). */
  readonly health: () => HealthOnOwnClient | Promise<HealthOnOwnClient>;
}

export function describeRedisStoreContracts(d: RedisDeployment): void {
  function fixture<S>(make: (client: RedisClient, keyPrefix: string) => S): MakeFixture<S> {
    return async () => {
      const shared = d.client();
      if (shared === undefined) throw new Error('redis client not ready');
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

  describeSessionStoreContract(`RedisSessionStore${d.label}`, async () => {
    const fx = await fixture((c, p) => ({ c, p }))();
    const twin = d.twinClient();
    if (twin === undefined) throw new Error('redis twin client not ready');
    return {
      ...fx,
      store: new RedisSessionStore(fx.store.c, fx.store.p, d.layout),
      twin: new RedisSessionStore(twin, fx.store.p, d.layout),
    };
  });
  describeKeyValueStoreContract(
    `RedisKeyValueStore${d.label}`,
    fixture((c, p) => new RedisKeyValueStore(c, p, d.layout)),
  );
  describeListStoreContract(
    `RedisListStore${d.label}`,
    fixture((c, p) => new RedisListStore(c, p, d.layout)),
  );
  describeRateLimitStoreContract(
    `RedisRateLimitStore${d.label}`,
    fixture((c, p) => new RedisRateLimitStore(c, p, d.layout)),
  );
  describeCaptchaStoreContract(
    `RedisCaptchaStore${d.label}`,
    fixture((c, p) => new RedisCaptchaStore(c, p, d.layout)),
  );
  describeAuditStoreContract(
    `RedisAuditStore${d.label}`,
    fixture((c, p) => new RedisAuditStore(c, p, d.layout)),
  );
  describeWebhookOutboxContract(
    `RedisWebhookOutbox${d.label}`,
    fixture((c, p) => new RedisWebhookOutbox(c, p, d.layout)),
  );
  describeStoreHealthContract(`RedisStoreHealth${d.label}`, async () => {
    const { client: own, store } = await d.health();
    return {
      store,
      clock: new FakeClock(Date.now()),
      elapse: sleep,
      cleanup: async () => {
        if (own.status !== 'end') own.disconnect();
      },
    };
  });
}
