/**
 * The store and the other process-wide resources, created once per process and shared by the
 * apps of that process (so `npm start` runs admin and web on one in-memory store).
 */
import type { CaptchaStore } from '../application/ports/captcha-store';
import type { Clock } from '../application/ports/clock';
import type { KeyValueStore } from '../application/ports/key-value-store';
import type { ListStore } from '../application/ports/list-store';
import type { Logger } from '../application/ports/logger';
import type { Metrics } from '../application/ports/metrics';
import type { RateLimitStore } from '../application/ports/rate-limit-store';
import type { SessionStore } from '../application/ports/session-store';
import type { StoreHealth } from '../application/ports/store-health';
import type { PasswordHasher } from '../application/ports/password-hasher';
import type Redis from 'ioredis';
import { PooledBcryptHasher } from '../adapters/crypto/bcrypt-hasher';
import { CryptoWorkerPool } from '../adapters/crypto/worker-pool';
import { InMemoryBackend } from '../adapters/memory/in-memory-backend';
import { withReadyWait } from '../adapters/redis/ready-wait';
import { createRedisClient, isCluster, type RedisTopology } from '../adapters/redis/redis-client';
import { withReplicaWait } from '../adapters/redis/replica-wait';
import { createRedisStores } from '../adapters/redis/redis-stores';
import { createSessionCache } from '../adapters/redis/session-cache/create-session-cache';
import { FencedSessionStore } from '../adapters/redis/session-cache/write-fence';
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
  /** Reports the process's local session cache to an app's metrics (a no-op without the cache). */
  readonly reportSessionCache?: (metrics: Metrics) => void;
  /**
   * Tells the local session cache (if any) that a reader cannot guarantee the check-phase start
   * its 'caller' hit ordering relies on (`why`), so its hits wait their own turn from now on.
   */
  readonly sessionReaderWithoutCheckPhaseEdge?: (why: string) => void;
  close(): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Every method of a port, exactly: a method added to the port and missing here is a compile error (it would escape failClosed). */
function allMethods<T>() {
  return <const M extends readonly (keyof T)[]>(methods: M & ([Exclude<keyof T, M[number]>] extends [never] ? unknown : never)): M => methods;
}

const SESSION_METHODS = allMethods<SessionStore>()(['create', 'getSession', 'update', 'deleteSession', 'mark', 'listByUser', 'listAll', 'findByTokenId']);
const KV_METHODS = allMethods<KeyValueStore>()([
  'get',
  'set',
  'setMany',
  'setIfAbsent',
  'getAndDelete',
  'delete',
  'deleteIfEquals',
  'deleteIfEqualsAndSet',
  'setIfAbsentOrGet',
  'replaceIfEquals',
  'increment',
]);
/** The session writes a client is told succeeded: a login, a logout or kickout tombstone, a session change. */
const SESSION_WRITES = ['create', 'deleteSession', 'mark', 'update'] as const;
/** Every key-value call but the plain read: nonces, idempotency results, refresh and one-time tokens. */
const KV_WRITES = KV_METHODS.filter((m) => m !== 'get');
const LIST_METHODS = allMethods<ListStore>()(['append', 'list']);
const RL_METHODS = allMethods<RateLimitStore>()(['hit', 'reset']);
const CAPTCHA_METHODS = allMethods<CaptchaStore>()(['save', 'take']);

export interface InfrastructureOptions {
  readonly log: Logger;
  /** Defaults to `log`. */
  readonly accessLog?: Logger;
  readonly clock?: Clock;
  /** Redis key prefix override (tests). */
  readonly keyPrefix?: string;
  /** The user directories to use instead of those svc.directory names (the CLI's writable file directory). */
  readonly directories?: Directories;
  /**
   * Who reads sessions through this infrastructure. 'http-apps' (default): only the HTTP apps, whose
   * edge starts every request after the I/O of the turn that read it, so the local session cache
   * (if configured) answers hits at once (hitOrdering 'caller'). 'tools' (the command-line tools):
   * no local cache at all, whatever the configuration says; a tool is a short-lived process that
   * would only open tracking connections for nothing.
   */
  readonly sessionReaders?: 'http-apps' | 'tools';
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
    reportSessionCache: stores.reportSessionCache,
    sessionReaderWithoutCheckPhaseEdge: stores.sessionReaderWithoutCheckPhaseEdge,
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
  readonly reportSessionCache?: (metrics: Metrics) => void;
  readonly sessionReaderWithoutCheckPhaseEdge?: (why: string) => void;
  close(): Promise<void>;
}

function memoryStores(clock: Clock): Stores {
  const backend = new InMemoryBackend(clock);
  const { sessions, kv, lists, rateLimits, captchas } = backend;
  return { ports: { sessions, kv, lists, rateLimits, captchas, health: backend }, close: () => backend.close() };
}

/** The client's target: the URL, the Sentinels and the master they name, or the cluster's seed nodes (svc.redis.mode). */
function redisTopology(r: AppConfig['redis']): RedisTopology {
  if (r.mode === 'sentinel') {
    return { mode: 'sentinel', sentinels: r.sentinels, masterName: r.masterName, sentinelPassword: r.sentinelPassword, url: r.url, password: r.password };
  }
  if (r.mode === 'cluster') return { mode: 'cluster', nodes: r.nodes, url: r.url, password: r.password };
  return { mode: 'standalone', url: r.url, password: r.password };
}

/**
 * Every port call fails closed (store-unavailable) while Redis is down; health reports it. With
 * svc.redis.wait-replicas > 0 the writes a client is told succeeded wait for the replicas first.
 */
function redisStores(config: AppConfig, opts: InfrastructureOptions): Stores {
  const r = config.redis;
  const connect = () =>
    createRedisClient(redisTopology(r), {
      commandTimeoutMs: r.commandTimeoutMs,
      onError: (err) => opts.log.warn({ err: { message: err.message } }, 'redis connection error'),
    });
  const client = connect();
  const keyPrefix = opts.keyPrefix ?? r.keyPrefix;
  const sentinelProbe = r.mode === 'sentinel' && config.profile !== 'prod' ? { sentinels: r.sentinels, masterName: r.masterName, sentinelPassword: r.sentinelPassword, timeoutMs: r.commandTimeoutMs } : undefined;
  const stores = createRedisStores(client, keyPrefix, {
    pingTimeoutMs: r.commandTimeoutMs,
    mode: r.mode,
    ...(sentinelProbe ? { probeSentinels: sentinelProbe } : {}),
    // Every node of the cluster in the details (not in prod, where details are not shown).
    ...(r.mode === 'cluster' ? { clusterNodes: config.profile !== 'prod' } : {}),
  });
  const wait = { replicas: r.waitReplicas, timeoutMs: r.commandTimeoutMs };
  const { sessionCache: sc } = config;
  // The cache's tracking connections need one server: the configuration refuses it with svc.redis.mode=cluster.
  const connectServer = (): Redis => {
    const c = connect();
    if (isCluster(c)) throw new Error('the local session cache needs one Redis server, not a cluster');
    return c;
  };
  // hitOrdering 'caller': the cache's readers are the HTTP apps (InfrastructureOptions.sessionReaders),
  // whose edge starts every request after the I/O of the turn that read it (requestContext's
  // CheckPhaseStart, first middleware of both); the tracking link ends itself in that turn's poll phase.
  // assembleApp checks each app's edge and turns the cache to 'own-turn' (with a warning) if not.
  const cache = sc.enabled && opts.sessionReaders !== 'tools'
    ? createSessionCache({ inner: stores.sessions, connect: connectServer, keyPrefix, clock: opts.clock ?? systemClock, log: opts.log, options: sc, hitOrdering: 'caller' })
    : null;
  // Session writes wait for their invalidations to be sent (write-fence.ts), cache on or off; not on
  // a cluster: no instance there has a cache to fence against (the configuration refuses it), and a
  // PING through the cluster client goes to a random node, not the master that took the write.
  const sessions = isCluster(client) ? stores.sessions : new FencedSessionStore(cache?.store ?? stores.sessions, () => client.ping());
  // On a cluster client a call first waits (at most the command timeout) while the client is not
  // ready, as a single connection's offline queue does (ready-wait.ts).
  const ready = <T extends object>(target: T, methods: readonly (keyof T)[]): T => (isCluster(client) ? withReadyWait(target, methods, client, r.commandTimeoutMs) : target);
  return {
    ports: {
      sessions: failClosed<SessionStore>(ready(withReplicaWait(sessions, SESSION_WRITES, client, wait), SESSION_METHODS), SESSION_METHODS),
      kv: failClosed<KeyValueStore>(ready(withReplicaWait(stores.kv, KV_WRITES, client, wait), KV_METHODS), KV_METHODS),
      lists: failClosed<ListStore>(ready(stores.lists, LIST_METHODS), LIST_METHODS),
      rateLimits: failClosed<RateLimitStore>(ready(stores.rateLimits, RL_METHODS), RL_METHODS),
      captchas: failClosed<CaptchaStore>(ready(stores.captchas, CAPTCHA_METHODS), CAPTCHA_METHODS),
      health: stores.health,
    },
    ...(cache === null
      ? {}
      : {
          reportSessionCache: (metrics: Metrics) => cache.metrics.add(metrics),
          sessionReaderWithoutCheckPhaseEdge: (why: string) => {
            if (cache.store.hitOrderingInUse !== 'caller') return;
            cache.store.answerHitsInOwnTurn();
            opts.log.warn({ why }, "session cache: hits wait for their own event-loop turn ('own-turn'), since an app does not start its requests in the check phase");
          },
        }),
    close: async () => {
      await cache?.store.close();
      await stores.health.close();
    },
  };
}
