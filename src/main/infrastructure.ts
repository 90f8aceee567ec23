/**
 * The store and the other process-wide resources, created once per process and shared by the
 * apps of that process (so `npm start` runs admin and web on one in-memory store).
 */
import type { Clock } from '../application/ports/clock';
import type { KeyValueStore } from '../application/ports/key-value-store';
import type { Logger } from '../application/ports/logger';
import type { RateLimitStore } from '../application/ports/rate-limit-store';
import type { SessionStore } from '../application/ports/session-store';
import type { StoreHealth } from '../application/ports/store-health';
import { InMemoryStore } from '../adapters/memory/in-memory-store';
import { createRedisClient } from '../adapters/redis/redis-client';
import { RedisStore } from '../adapters/redis/redis-store';
import { failClosed } from '../adapters/store-guard';
import type { AppConfig } from './config';
import { createDirectories, type Directories } from './directories';

export interface Infrastructure {
  readonly clock: Clock;
  readonly log: Logger;
  readonly sessions: SessionStore;
  readonly kv: KeyValueStore;
  readonly rateLimits: RateLimitStore;
  readonly health: StoreHealth;
  /** Admin users and members (svc.directory); null while no directory backend is configured. */
  readonly directories: Directories | null;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

const SESSION_METHODS = ['create', 'getSession', 'update', 'deleteSession', 'mark', 'listByUser', 'listAll', 'findByTokenId'] as const;
const KV_METHODS = ['get', 'set', 'setIfAbsent', 'getAndDelete', 'delete', 'deleteIfEquals', 'increment'] as const;
const RL_METHODS = ['hit', 'reset'] as const;

export interface InfrastructureOptions {
  readonly log: Logger;
  readonly clock?: Clock;
  /** Redis key prefix override (tests). */
  readonly keyPrefix?: string;
}

export function createInfrastructure(config: AppConfig, opts: InfrastructureOptions): Infrastructure {
  const clock = opts.clock ?? systemClock;
  const directories = createDirectories(config, opts.log);
  const closeDirectories = async () => directories?.close();
  if (config.store === 'memory') {
    const store = new InMemoryStore(clock);
    const close = async () => {
      await store.close();
      await closeDirectories();
    };
    return { clock, log: opts.log, sessions: store, kv: store, rateLimits: store, health: store, directories, close };
  }
  const client = createRedisClient(config.redis.url, {
    commandTimeoutMs: config.redis.commandTimeoutMs,
    onError: (err) => opts.log.warn({ err: { message: err.message } }, 'redis connection error'),
  });
  const store = new RedisStore(client, opts.keyPrefix ?? config.redis.keyPrefix);
  return {
    clock,
    log: opts.log,
    sessions: failClosed<SessionStore>(store, SESSION_METHODS),
    kv: failClosed<KeyValueStore>(store, KV_METHODS),
    rateLimits: failClosed<RateLimitStore>(store, RL_METHODS),
    health: store,
    directories,
    close: async () => {
      await store.close();
      await closeDirectories();
    },
  };
}
