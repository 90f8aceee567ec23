/** Every Redis store port on one client and one key prefix (key-layout.ts), as a deployment uses them. */
import type { RedisClient } from './redis-client';
import { RedisCaptchaStore } from './captcha-store';
import { RedisKeyValueStore } from './key-value-store';
import { RedisListStore } from './list-store';
import { RedisRateLimitStore } from './rate-limit-store';
import { RedisSessionStore } from './session-store';
import { RedisStoreHealth, type RedisStoreHealthOptions } from './store-health';

export interface RedisStores {
  readonly sessions: RedisSessionStore;
  readonly kv: RedisKeyValueStore;
  readonly lists: RedisListStore;
  readonly rateLimits: RedisRateLimitStore;
  readonly captchas: RedisCaptchaStore;
  /** Pings the client; close() closes it, ending every store above. */
  readonly health: RedisStoreHealth;
}

export function createRedisStores(client: RedisClient, keyPrefix: string, opts: RedisStoreHealthOptions = {}): RedisStores {
  return {
    sessions: new RedisSessionStore(client, keyPrefix),
    kv: new RedisKeyValueStore(client, keyPrefix),
    lists: new RedisListStore(client, keyPrefix),
    rateLimits: new RedisRateLimitStore(client, keyPrefix),
    captchas: new RedisCaptchaStore(client, keyPrefix),
    health: new RedisStoreHealth(client, opts),
  };
}
