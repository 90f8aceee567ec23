/**
 * The store backends (svc.store; for Redis svc.redis.mode), each with its raw ports and the layers
 * that apply to it, and the cross-cutting layers in their one order (STORE_LAYERS, applied with
 * store-ports.ts's wraps). No other file under src/ spells a backend's name (a test checks it):
 * the configuration and the composition roots ask what a backend can do (storeBackendOf,
 * redisModeOf). Adding one: docs/architecture.md, "Adding a store backend".
 */
import type Redis from 'ioredis';
import type { Metrics } from '../application/ports/metrics';
import type { StoreHealth } from '../application/ports/store-health';
import { InMemoryBackend } from '../adapters/memory/in-memory-backend';
import { withReadyWait } from '../adapters/redis/ready-wait';
import { createRedisClient, isCluster, type RedisClient, type RedisTopology } from '../adapters/redis/redis-client';
import { createRedisStores } from '../adapters/redis/redis-stores';
import { withReplicaWait } from '../adapters/redis/replica-wait';
import type { RedisStoreHealthOptions } from '../adapters/redis/store-health';
import { createSessionCache, type SessionCache } from '../adapters/redis/session-cache/create-session-cache';
import { FencedSessionStore } from '../adapters/redis/session-cache/write-fence';
import { failClosed } from '../adapters/store-guard';
import { timed } from '../adapters/timed-store';
import { applyWraps, KV_WRITES, METRIC_LABELS, methodWraps, need, SESSION_WRITES } from './store-ports';
import type {
  AppContext,
  LayerInstance,
  LayerSettings,
  ProcessContext,
  RawStores,
  SessionCacheHandles,
  StoreAssemblyOptions,
  StorePorts,
} from './store-ports';

export type { StoreAssemblyOptions, StorePorts } from './store-ports';

/** The settings the backends read: the configuration's svc.store, svc.redis.*, session.local-cache.*, profile. */
export interface StoreSettings extends LayerSettings {
  readonly store: StoreBackendName;
  /** session.tombstone-retention (seconds): how long the Redis session store keeps a tombstone at most. */
  readonly session: { readonly tombstoneRetention: number };
  readonly redis: LayerSettings['redis'] & { readonly mode: RedisModeName };
}

type StoreLayer =
  | { readonly name: LayerName; readonly stage: 'process'; make(ctx: ProcessContext): LayerInstance | null }
  | { readonly name: LayerName; readonly stage: 'app'; make(ctx: AppContext): LayerInstance | null };

export type LayerName = 'session cache' | 'write fence' | 'replica wait' | 'ready wait' | 'fail closed' | 'timing';

/**
 * Every cross-cutting layer, innermost first: each wraps what the ones above it built, and a
 * backend's entry says which of them apply to it (their order is always this one). The
 * process-wide layers are applied once per process (assembleStores), the per-app ones per app
 * container (decorateForApp), after all of them.
 */
export const STORE_LAYERS: readonly StoreLayer[] = [
  {
    // The local session cache, innermost: right on the raw Redis session store, whose keys it
    // tracks (the invalidations Redis sends name them) and which it reads through on a miss.
    // Every layer below sees it as the session store, so a write through it is fenced, waited
    // for and guarded like any other, and a hit is timed as a session call.
    name: 'session cache',
    stage: 'process',
    make({ settings, opts, keyPrefix, connect }) {
      const sc = settings.sessionCache;
      if (!sc.enabled || opts.sessionReaders === 'tools') return null;
      const connectClient = need(connect, 'session cache');
      // The cache's tracking connections need one server: the configuration refuses it on a cluster.
      const connectServer = (): Redis => {
        const c = connectClient();
        if (isCluster(c)) throw new Error('the local session cache needs one Redis server, not a cluster');
        return c;
      };
      let made: SessionCache | undefined;
      // Made as the sessions are wrapped (by assembleStores, before it returns these handles).
      const cache = () => made as SessionCache;
      return {
        wraps: {
          sessions: (inner) => {
            // hitOrdering 'caller': the cache's readers are the HTTP apps (InfrastructureOptions.sessionReaders),
            // whose edge starts every request after the I/O of the turn that read it (requestContext's
            // CheckPhaseStart, first middleware of both); the tracking link ends itself in that turn's poll phase.
            // assembleApp checks each app's edge and turns the cache to 'own-turn' (with a warning) if not.
            made = createSessionCache({
              inner,
              connect: connectServer,
              keyPrefix,
              clock: opts.clock,
              log: opts.log,
              options: sc,
              hitOrdering: 'caller',
            });
            return made.store;
          },
        },
        close: async () => void (await made?.store.close()),
        sessionCache: {
          reportSessionCache: (metrics) => cache().metrics.add(metrics),
          sessionReaderWithoutCheckPhaseEdge: (why) => {
            const { store } = cache();
            if (store.hitOrderingInUse !== 'caller') return;
            store.answerHitsInOwnTurn();
            opts.log.warn(
              { why },
              "session cache: hits wait for their own event-loop turn ('own-turn'), since an app does not " +
                'start its requests in the check phase',
            );
          },
        },
      };
    },
  },
  {
    // Session writes wait for their invalidations to be sent (write-fence.ts), cache on or off.
    // Over the cache, so a write through it is fenced; under the replica wait, so the fence's PING
    // follows the write at once, before WAIT: a write whose WAIT then falls short (a 503 to the
    // client, though the master holds it) has still had its invalidations sent to every other
    // instance's cache. Not on a cluster (its entry leaves it out).
    name: 'write fence',
    stage: 'process',
    make({ client }) {
      const c = need(client, 'write fence');
      return { wraps: { sessions: (s) => new FencedSessionStore(s, () => c.ping()) } };
    },
  },
  {
    // With svc.redis.wait-replicas > 0 the writes a client is told succeeded wait for the replicas
    // (WAIT after the write, replica-wait.ts). Under the ready wait, which holds the whole call,
    // write and WAIT, until a cluster client is ready (one still discovering the cluster knows no
    // master to send WAIT to), and under the guard, which turns a short count into store-unavailable.
    name: 'replica wait',
    stage: 'process',
    make({ settings, client }) {
      const c = need(client, 'replica wait');
      const wait = { replicas: settings.redis.waitReplicas, timeoutMs: settings.redis.commandTimeoutMs };
      if (wait.replicas <= 0) return null;
      return { wraps: methodWraps((p, m) => withReplicaWait(p, m, c, wait), { sessions: SESSION_WRITES, kv: KV_WRITES }) };
    },
  },
  {
    // On a cluster client a call first waits (at most the command timeout) while the client is
    // not ready, as a single connection's offline queue does (ready-wait.ts). Outside every layer
    // that sends commands, so none of them starts on a client that is not ready; inside the guard,
    // which turns the failure of a client still not ready after the wait into store-unavailable.
    // Only on a cluster (its entry): a single connection queues its commands itself.
    name: 'ready wait',
    stage: 'process',
    make({ settings, client }) {
      const c = need(client, 'ready wait');
      return { wraps: methodWraps((p, m) => withReadyWait(p, m, c, settings.redis.commandTimeoutMs)) };
    },
  },
  {
    // Every port call fails closed (store-unavailable, 503) while the store is down: outermost of
    // the process-wide layers, so a failure of any layer inside (a connection, WAIT, the ready
    // wait's timeout) becomes the same domain error.
    name: 'fail closed',
    stage: 'process',
    make: () => ({ wraps: methodWraps(failClosed) }),
  },
  {
    // Store-call latency by store, operation and outcome, per app (each app's own metrics
    // registry, so applied by its container): outermost, so it measures what the use case waits
    // for, every layer included, and counts a store-unavailable as a failed call.
    name: 'timing',
    stage: 'app',
    make: ({ metrics }) => ({ wraps: methodWraps((p, _methods, port) => timed(p, METRIC_LABELS[port], metrics)) }),
  },
];

export interface StoreBackend {
  /** Every instance sees the same data: prod requires it, and so do the CLI's session commands. */
  readonly shared: boolean;
  /** session.local-cache.enabled here: the cache is built, refused by the configuration, or ignored with a warning. */
  readonly localSessionCache: 'supported' | 'refused' | 'ignored';
  /** The layers (STORE_LAYERS) that apply, in any order: they are applied in STORE_LAYERS'. */
  readonly layers: readonly LayerName[];
  build(settings: StoreSettings, opts: StoreAssemblyOptions): RawStores;
}

/** A Redis topology (svc.redis.mode): a backend, and which svc.redis.* keys it reads. */
export interface RedisMode extends StoreBackend {
  /** svc.redis.url names the server (in the other modes only its credentials, and database, are used). */
  readonly urlNamesServer: boolean;
  /** svc.redis.sentinels and svc.redis.sentinel-password are read. */
  readonly usesSentinels: boolean;
  /** svc.redis.nodes are read (and a cluster's rules on the prefix and database apply). */
  readonly usesNodes: boolean;
}

const MEMORY: StoreBackend = {
  shared: false,
  localSessionCache: 'ignored',
  layers: ['timing'],
  build(_settings, opts) {
    const backend = new InMemoryBackend(opts.clock);
    const { sessions, kv, lists, rateLimits, captchas, audit, webhooks } = backend;
    return {
      ports: { sessions, kv, lists, rateLimits, captchas, audit, webhooks },
      health: backend,
      client: null,
      connect: null,
      close: () => backend.close(),
    };
  },
};

/** A Redis backend: the client's target, and what its health reports beyond PING. */
function redisMode(
  facts: Omit<RedisMode, 'build' | 'shared'>,
  topology: (r: StoreSettings['redis']) => RedisTopology,
  healthOptions: (s: StoreSettings) => Omit<RedisStoreHealthOptions, 'pingTimeoutMs' | 'mode'>,
): RedisMode {
  return {
    ...facts,
    shared: true,
    build(settings, opts) {
      const r = settings.redis;
      const connect = (): RedisClient =>
        createRedisClient(topology(r), {
          commandTimeoutMs: r.commandTimeoutMs,
          onError: (err) => opts.log.warn({ err: { message: err.message } }, 'redis connection error'),
        });
      const client = connect();
      const stores = createRedisStores(
        client,
        opts.keyPrefix ?? r.keyPrefix,
        { pingTimeoutMs: r.commandTimeoutMs, mode: r.mode, ...healthOptions(settings) },
        undefined,
        { tombstoneRetentionMs: settings.session.tombstoneRetention * 1000 },
      );
      const { sessions, kv, lists, rateLimits, captchas, audit, webhooks } = stores;
      // The online index's background sweeper (online-sweeper.ts), in the service's processes only (not the CLI's).
      const sweep = r.indexSweepMs > 0 && opts.sessionReaders !== 'tools';
      const onError = (err: unknown) => opts.log.warn({ err: { message: (err as Error).message } }, 'online index sweep failed');
      const sweeper = sweep ? sessions.indexSweeper({ now: () => opts.clock.now(), onError }).start(r.indexSweepMs) : null;
      return {
        ports: { sessions, kv, lists, rateLimits, captchas, audit, webhooks },
        health: stores.health,
        client,
        connect,
        close: async () => {
          await sweeper?.stop();
          await stores.health.close();
        },
      };
    },
  };
}

/** svc.redis.mode's values (with svc.store=redis): one server, the master a set of Sentinels names, a Redis Cluster. */
const REDIS_MODES = {
  standalone: redisMode(
    {
      localSessionCache: 'supported',
      urlNamesServer: true,
      usesSentinels: false,
      usesNodes: false,
      layers: ['session cache', 'write fence', 'replica wait', 'fail closed', 'timing'],
    },
    (r) => ({ mode: 'standalone', url: r.url, password: r.password }),
    () => ({}),
  ),
  sentinel: redisMode(
    {
      localSessionCache: 'supported',
      urlNamesServer: false,
      usesSentinels: true,
      usesNodes: false,
      layers: ['session cache', 'write fence', 'replica wait', 'fail closed', 'timing'],
    },
    (r) => ({
      mode: 'sentinel',
      sentinels: r.sentinels,
      masterName: r.masterName,
      sentinelPassword: r.sentinelPassword,
      url: r.url,
      password: r.password,
    }),
    // What each Sentinel says of the master, in the details (not in prod, where details are not shown).
    ({ profile, redis: r }) =>
      profile !== 'prod'
        ? {
            probeSentinels: {
              sentinels: r.sentinels,
              masterName: r.masterName,
              sentinelPassword: r.sentinelPassword,
              timeoutMs: r.commandTimeoutMs,
            },
          }
        : {},
  ),
  // No session cache (refused by the configuration: it would need one tracking connection per
  // master), so no write fence either: no instance has a cache to fence against, and a PING
  // through the cluster client goes to a random node, not the master that took the write.
  cluster: redisMode(
    {
      localSessionCache: 'refused',
      urlNamesServer: false,
      usesSentinels: false,
      usesNodes: true,
      layers: ['replica wait', 'ready wait', 'fail closed', 'timing'],
    },
    (r) => ({ mode: 'cluster', nodes: r.nodes, url: r.url, password: r.password }),
    // Every node of the cluster in the details (not in prod, where details are not shown).
    ({ profile }) => ({ clusterNodes: profile !== 'prod' }),
  ),
} as const satisfies Record<string, RedisMode>;

/** svc.store's values; each resolves (with svc.redis.mode) to one backend. */
const STORE_BACKENDS = {
  memory: () => MEMORY,
  redis: (r: { readonly mode: RedisModeName }) => REDIS_MODES[r.mode],
} as const satisfies Record<string, (r: { readonly mode: RedisModeName }) => StoreBackend>;

export type StoreBackendName = keyof typeof STORE_BACKENDS;
export type RedisModeName = keyof typeof REDIS_MODES;

function namesOf<K extends string>(o: Record<K, unknown>): [K, ...K[]] {
  return Object.keys(o) as [K, ...K[]];
}

/** The allowed values of svc.store and of svc.redis.mode (the configuration's enums). */
export const STORE_BACKEND_NAMES = namesOf(STORE_BACKENDS);
export const REDIS_MODE_NAMES = namesOf(REDIS_MODES);
/** svc.store's default: the in-process store (dev and test; prod refuses it). */
export const DEFAULT_STORE_BACKEND: StoreBackendName = 'memory';
export const DEFAULT_REDIS_MODE: RedisModeName = 'standalone';
/** A store that lives in the process: for a tool that needs a throwaway one (the CLI's `users add`). */
export const IN_PROCESS_STORE: StoreBackendName = 'memory';

/** The backend svc.store (and, for Redis, svc.redis.mode) select. */
export function storeBackendOf(s: { readonly store: StoreBackendName; readonly redis: { readonly mode: RedisModeName } }): StoreBackend {
  return STORE_BACKENDS[s.store](s.redis);
}

/** The Redis topology svc.redis.mode selects (its settings are checked whatever svc.store says). */
export function redisModeOf(r: { readonly mode: RedisModeName }): RedisMode {
  return REDIS_MODES[r.mode];
}

/** The store ports of the configured backend, through its process-wide layers, and how to close them. */
export interface AssembledStores {
  readonly backend: StoreBackend;
  readonly ports: StorePorts;
  readonly health: StoreHealth;
  readonly sessionCache?: SessionCacheHandles;
  close(): Promise<void>;
}

/** The layers of `backend` made for one assembly (`ctx`: the process's, or an app's), in STORE_LAYERS' order. */
function layersOf(backend: StoreBackend, ctx: { readonly process: ProcessContext } | { readonly app: AppContext }): LayerInstance[] {
  return STORE_LAYERS.flatMap((l) => {
    if (!backend.layers.includes(l.name)) return [];
    const made = l.stage === 'process' ? ('process' in ctx ? l.make(ctx.process) : null) : 'app' in ctx ? l.make(ctx.app) : null;
    return made === null ? [] : [made];
  });
}

/** Builds the backend `settings` select and applies its process-wide layers, in STORE_LAYERS' order. */
export function assembleStores(settings: StoreSettings, opts: StoreAssemblyOptions): AssembledStores {
  const backend = storeBackendOf(settings);
  const raw = backend.build(settings, opts);
  const ctx: ProcessContext = {
    settings,
    opts,
    keyPrefix: opts.keyPrefix ?? settings.redis.keyPrefix,
    client: raw.client,
    connect: raw.connect,
  };
  const instances = layersOf(backend, { process: ctx });
  const ports = applyWraps(raw.ports, instances);
  const sessionCache = instances.find((i) => i.sessionCache !== undefined)?.sessionCache;
  return {
    backend,
    ports,
    health: raw.health,
    ...(sessionCache === undefined ? {} : { sessionCache }),
    close: async () => {
      for (const i of instances) await i.close?.();
      await raw.close();
    },
  };
}

/** `ports` (an infrastructure's, as a test may have replaced them) through `backend`'s per-app layers, for one app. */
export function decorateForApp(ports: StorePorts, backend: StoreBackend, metrics: Metrics): StorePorts {
  return applyWraps(ports, layersOf(backend, { app: { metrics } }));
}
