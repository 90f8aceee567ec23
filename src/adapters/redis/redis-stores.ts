/** Every Redis store port on one client and one key prefix (key-layout.ts), as a deployment uses them. */
import { RedisAuditStore } from './audit-store';
import { RedisWebhookOutbox } from './webhook-outbox';
import { RedisCaptchaStore } from './captcha-store';
import type { KeyLayoutKind } from './key-layout';
import { RedisKeyValueStore } from './key-value-store';
import { RedisListStore } from './list-store';
import { RedisRateLimitStore } from './rate-limit-store';
import type { RedisClient } from './redis-client';
import { RedisSessionStore, type RedisSessionStoreOptions } from './session-store';
import { RedisStoreHealth, type RedisStoreHealthOptions } from './store-health';

export interface RedisStores {
  readonly sessions: RedisSessionStore;
  readonly kv: RedisKeyValueStore;
  readonly lists: RedisListStore;
  readonly rateLimits: RedisRateLimitStore;
  readonly captchas: RedisCaptchaStore;
  readonly audit: RedisAuditStore;
  readonly webhooks: RedisWebhookOutbox;
  /** Pings the client; close() closes it, ending every store above. */
  readonly health: RedisStoreHealth;
}

/** `layout` defaults to the one the client needs (tagged on a cluster); tests pass 'tagged' on one server. */
export function createRedisStores(
  client: RedisClient,
  keyPrefix: string,
  opts: RedisStoreHealthOptions = {},
  layout?: KeyLayoutKind,
  sessionOptions: RedisSessionStoreOptions = {},
): RedisStores {
  return {
    sessions: new RedisSessionStore(client, keyPrefix, layout, sessionOptions),
    kv: new RedisKeyValueStore(client, keyPrefix, layout),
    lists: new RedisListStore(client, keyPrefix, layout),
    rateLimits: new RedisRateLimitStore(client, keyPrefix, layout),
    captchas: new RedisCaptchaStore(client, keyPrefix, layout),
    audit: new RedisAuditStore(client, keyPrefix, layout),
    webhooks: new RedisWebhookOutbox(client, keyPrefix, layout),
    health: new RedisStoreHealth(client, opts),
  };
}
