/**
 * The store and the other process-wide resources, created once per process and shared by the
 * apps of that process (so `npm start` runs admin and web on one in-memory store).
 */
import type { CaptchaStore } from '../application/ports/captcha-store';
import type { Clock } from '../application/ports/clock';
import type { KeyValueStore } from '../application/ports/key-value-store';
import type { ListStore } from '../application/ports/list-store';
import type { Logger } from '../application/ports/logger';
import type { RateLimitStore } from '../application/ports/rate-limit-store';
import type { SessionStore } from '../application/ports/session-store';
import type { StoreHealth } from '../application/ports/store-health';
import type { PasswordHasher } from '../application/ports/password-hasher';
import { PooledBcryptHasher } from '../adapters/crypto/bcrypt-hasher';
import { CryptoWorkerPool } from '../adapters/crypto/worker-pool';
import { InMemoryBackend } from '../adapters/memory/in-memory-backend';
import { createRedisClient } from '../adapters/redis/redis-client';
import { createRedisStores } from '../adapters/redis/redis-stores';
import { failClosed } from '../adapters/store-guard';
import { configWarnings, type AppConfig } from './config';
import { createDirectories, type Directories } from './directories';

export interface Infrastructure {
  readonly clock: Clock;
  readonly log: Logger;
  /** Writer of the access lines (an unredacted child of `log`: the access line is an allowlist). */
  readonly accessLog: Logger;
  readonly sessions: SessionStore;
  readonly kv: KeyValueStore;
  readonly lists: ListStore;
  readonly rateLimits: RateLimitStore;
  /** Captcha answers, single use (take reads and removes). */
  readonly captchas: CaptchaStore;
  readonly health: StoreHealth;
  /** Worker threads for BCrypt and PKCS#1 RSA (shared by the apps of the process). */
  readonly cryptoPool: CryptoWorkerPool;
  /** BCrypt on that pool. */
  readonly hasher: PasswordHasher;
  /** Admin users and members (svc.directory); null while no directory backend is configured. */
  readonly directories: Directories;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

const SESSION_METHODS = ['create', 'getSession', 'update', 'deleteSession', 'mark', 'listByUser', 'listAll', 'findByTokenId'] as const;
const KV_METHODS = ['get', 'set', 'setIfAbsent', 'getAndDelete', 'delete', 'deleteIfEquals', 'setIfAbsentOrGet', 'replaceIfEquals', 'increment'] as const;
const LIST_METHODS = ['append', 'list'] as const;
const RL_METHODS = ['hit', 'reset'] as const;
const CAPTCHA_METHODS = ['save', 'take'] as const;

export interface InfrastructureOptions {
  readonly log: Logger;
  /** Defaults to `log`. */
  readonly accessLog?: Logger;
  readonly clock?: Clock;
  /** Redis key prefix override (tests). */
  readonly keyPrefix?: string;
  /** The user directories to use instead of those svc.directory names (the CLI's writable file directory). */
  readonly directories?: Directories;
}

export function createInfrastructure(config: AppConfig, opts: InfrastructureOptions): Infrastructure {
  const clock = opts.clock ?? systemClock;
  for (const warning of configWarnings(config)) opts.log.warn({}, warning);
  const cryptoPool = new CryptoWorkerPool(config.cryptoWorkerThreads);
  const hasher = new PooledBcryptHasher(cryptoPool);
  const directories = opts.directories ?? createDirectories(config, opts.log);
  const stores = config.store === 'memory' ? memoryStores(clock) : redisStores(config, opts);
  return {
    clock,
    log: opts.log,
    accessLog: opts.accessLog ?? opts.log,
    ...stores.ports,
    cryptoPool,
    hasher,
    directories,
    close: async () => {
      await cryptoPool.close();
      await stores.close();
      await directories.close();
    },
  };
}

/** The store ports of one backend, and how to close it. */
interface Stores {
  readonly ports: Pick<Infrastructure, 'sessions' | 'kv' | 'lists' | 'rateLimits' | 'captchas' | 'health'>;
  close(): Promise<void>;
}

function memoryStores(clock: Clock): Stores {
  const backend = new InMemoryBackend(clock);
  const { sessions, kv, lists, rateLimits, captchas } = backend;
  return { ports: { sessions, kv, lists, rateLimits, captchas, health: backend }, close: () => backend.close() };
}

/** Every port call fails closed (store-unavailable) while Redis is down; health reports it. */
function redisStores(config: AppConfig, opts: InfrastructureOptions): Stores {
  const client = createRedisClient(config.redis.url, {
    commandTimeoutMs: config.redis.commandTimeoutMs,
    onError: (err) => opts.log.warn({ err: { message: err.message } }, 'redis connection error'),
  });
  const stores = createRedisStores(client, opts.keyPrefix ?? config.redis.keyPrefix, { pingTimeoutMs: config.redis.commandTimeoutMs });
  return {
    ports: {
      sessions: failClosed<SessionStore>(stores.sessions, SESSION_METHODS),
      kv: failClosed<KeyValueStore>(stores.kv, KV_METHODS),
      lists: failClosed<ListStore>(stores.lists, LIST_METHODS),
      rateLimits: failClosed<RateLimitStore>(stores.rateLimits, RL_METHODS),
      captchas: failClosed<CaptchaStore>(stores.captchas, CAPTCHA_METHODS),
      health: stores.health,
    },
    close: () => stores.health.close(),
  };
}
