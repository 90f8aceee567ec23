/** Helpers of the local session cache tests: a cached store on a real Redis, and waiting for its tracking link. */
import type Redis from 'ioredis';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import type { CachedSessionStore } from '../../src/adapters/redis/session-cache/cached-session-store';
import { createSessionCache, type SessionCache } from '../../src/adapters/redis/session-cache/create-session-cache';
import { FencedSessionStore } from '../../src/adapters/redis/session-cache/write-fence';
import type { Clock } from '../../src/application/ports/clock';
import type { SessionStore } from '../../src/application/ports/session-store';

/** Waits until the cache's tracking link is up (or fails after `ms`). */
export async function waitForTracking(store: CachedSessionStore, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!store.tracking) {
    if (Date.now() > deadline) throw new Error(`the session cache's tracking link did not come up within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A cached Redis session store on `client` (its tracking link on new connections to `url`), tracking;
 * `writer` is it behind the write fence, as the infrastructure wires it (writes go through `writer`).
 */
export async function cachedSessionStore(
  client: Redis,
  url: string,
  keyPrefix: string,
  clock: Clock,
  options: { maxEntries?: number; ttlMs?: number; heartbeatMs?: number; probeTimeoutMs?: number; connect?: () => Redis } = {},
): Promise<SessionCache & { readonly writer: SessionStore }> {
  const cache = createSessionCache({
    inner: new RedisSessionStore(client, keyPrefix),
    connect: options.connect ?? (() => createRedisClient(url)),
    keyPrefix,
    clock,
    log: silentLogger,
    options: { maxEntries: options.maxEntries ?? 1000, ttlMs: options.ttlMs ?? 60_000 },
    link: { heartbeatMs: options.heartbeatMs ?? 1000, probeTimeoutMs: options.probeTimeoutMs ?? 2000 },
  });
  await waitForTracking(cache.store);
  return { ...cache, writer: new FencedSessionStore(cache.store, () => client.ping()) };
}
