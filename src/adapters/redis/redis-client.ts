/**
 * The one place an ioredis client is configured for production: commands fail fast instead
 * of hanging while Redis is down, reconnects back off (capped), and connection errors are
 * reported instead of crashing the process. Standalone connects to one URL; Sentinel uses
 * ioredis' own Sentinel support (it asks the Sentinels for the master, checks the role of
 * what it reached, and follows a failover on its own); Cluster uses ioredis' own `Cluster`
 * (slot routing, MOVED / ASK, following a failover: nothing of it is done here).
 */
import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';

/** What the stores run on: one connection (standalone, Sentinel) or a Redis Cluster client. */
export type RedisClient = Redis | Cluster;

/** A Redis Cluster client (ioredis sets `isCluster` on both kinds). */
export function isCluster(client: RedisClient): client is Cluster {
  return client.isCluster;
}

type HostPort = { readonly host: string; readonly port: number };

export interface RedisClientOptions {
  /** Ms before a command (including one waiting in the offline queue) is rejected. Default 2000. */
  readonly commandTimeoutMs?: number;
  /** Ms to establish the TCP connection. Default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * Batch commands issued in the same tick into one write (fewer syscalls on the hot path).
   * Safe with the store's Lua scripts (ioredis resends EVAL on NOSCRIPT). Default true.
   * Never in cluster mode: ioredis' auto-pipelining on a Cluster batches by node, and while slots
   * move it hands MOVED replies and "All keys in the pipeline should belong to the same slots
   * allocation group" errors to the callers instead of following them (redis/ioredis#2075; the
   * live-reshard test shows it), so the cluster client sends each command on its own.
   */
  readonly enableAutoPipelining?: boolean;
  /** Called for every connection error (ioredis emits them while it reconnects). */
  readonly onError?: (err: Error) => void;
}

export interface StandaloneTopology {
  readonly mode: 'standalone';
  readonly url: string;
  /** Overrides the URL's password ('' or absent: the URL's own). */
  readonly password?: string;
}

export interface SentinelTopology {
  readonly mode: 'sentinel';
  readonly sentinels: readonly HostPort[];
  readonly masterName: string;
  /** AUTH of the Sentinels ('' or absent: none). */
  readonly sentinelPassword?: string;
  /** Only its user, password and database are used ('' or absent: none, db 0). */
  readonly url?: string;
  readonly password?: string;
}

export interface ClusterTopology {
  readonly mode: 'cluster';
  /** Seed nodes: any one that answers is enough to discover the others. */
  readonly nodes: readonly HostPort[];
  /** Only its user and password are used ('' or absent: none; a cluster has database 0 only). */
  readonly url?: string;
  readonly password?: string;
}

/** Where the data lives: one server, the master a set of Sentinels names, or a Redis Cluster. */
export type RedisTopology = StandaloneTopology | SentinelTopology | ClusterTopology;

/** User, password and database of a redis:// URL. */
function credentialsOf(url: string | undefined): { username?: string; password?: string; db?: number } {
  if (url === undefined || url === '') return {};
  const u = new URL(url);
  const db = u.pathname.replace(/^\//, '');
  return {
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== '' ? { db: Number(db) } : {}),
  };
}

function sentinelOptions(t: SentinelTopology, commandTimeoutMs: number): RedisOptions {
  const creds = credentialsOf(t.url);
  return {
    ...creds,
    ...(t.password ? { password: t.password } : {}),
    sentinels: t.sentinels.map((s) => ({ host: s.host, port: s.port })),
    name: t.masterName,
    role: 'master',
    ...(t.sentinelPassword ? { sentinelPassword: t.sentinelPassword } : {}),
    sentinelCommandTimeout: commandTimeoutMs,
    // Also reconnect when the Sentinels announce a new master while the old one still answers.
    failoverDetector: true,
    // Keep asking the Sentinels (capped back-off) instead of giving up while none answers.
    sentinelRetryStrategy: (times: number) => Math.min(times * 100, 1000),
  };
}

/** Capped back-off: 100 ms, 200 ms, ... at most 1 s between attempts, forever. */
const backOff = (times: number) => Math.min(times * 100, 1000);

/** Retries (MOVED, ASK, lost node, CLUSTERDOWN, TRYAGAIN) of one cluster command before it is rejected. */
const MAX_REDIRECTIONS = 16;

/**
 * ioredis' Cluster, as fail-fast as the single-connection client. Each node connection has the
 * command timeout. A command issued while the cluster client is not ready (starting, every node
 * lost, CLUSTER INFO saying cluster_state:fail) is rejected at once instead of waiting in the
 * cluster's offline queue, which has no timeout (ready-wait.ts bounds that wait by the command
 * timeout instead). MOVED is followed at once (the reply names the new owner); a lost node,
 * CLUSTERDOWN or TRYAGAIN is retried with a slot refresh, MAX_REDIRECTIONS times spread over
 * about the command timeout (every commandTimeout/16 ms, at most 100 ms), then rejected: a
 * slot whose master is gone fails within about the command timeout, or rides out a failover
 * that completes sooner.
 */
function clusterClient(t: ClusterTopology, node: RedisOptions): Cluster {
  const { username, password } = credentialsOf(t.url);
  const commandTimeout = node.commandTimeout ?? 2000;
  const retryDelay = Math.max(10, Math.min(100, Math.round(commandTimeout / MAX_REDIRECTIONS)));
  const options: ClusterOptions = {
    redisOptions: { ...node, ...(username ? { username } : {}), ...(t.password || password ? { password: t.password || password } : {}) },
    // See RedisClientOptions.enableAutoPipelining.
    enableAutoPipelining: false,
    enableOfflineQueue: false,
    scaleReads: 'master',
    // Rediscover the cluster forever, with the capped back-off, while no node answers.
    clusterRetryStrategy: backOff,
    slotsRefreshTimeout: Math.min(commandTimeout, 1000),
    maxRedirections: MAX_REDIRECTIONS,
    retryDelayOnMoved: 0,
    retryDelayOnFailover: retryDelay,
    retryDelayOnClusterDown: retryDelay,
    retryDelayOnTryAgain: retryDelay,
  };
  return new Cluster(
    t.nodes.map((n) => ({ host: n.host, port: n.port })),
    options,
  );
}

export function createRedisClient(target: string | StandaloneTopology | SentinelTopology, opts?: RedisClientOptions): Redis;
export function createRedisClient(target: ClusterTopology, opts?: RedisClientOptions): Cluster;
export function createRedisClient(target: string | RedisTopology, opts?: RedisClientOptions): RedisClient;
export function createRedisClient(target: string | RedisTopology, opts: RedisClientOptions = {}): RedisClient {
  const topology: RedisTopology = typeof target === 'string' ? { mode: 'standalone', url: target } : target;
  const commandTimeout = opts.commandTimeoutMs ?? 2000;
  const enableAutoPipelining = opts.enableAutoPipelining ?? true;
  const node: RedisOptions = {
    // A command is retried on one reconnect at most, then rejected: callers fail closed.
    maxRetriesPerRequest: 1,
    commandTimeout,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
  };
  let client: RedisClient;
  if (topology.mode === 'cluster') client = clusterClient(topology, node);
  else {
    // Reconnect forever, with the capped back-off.
    const common: RedisOptions = { ...node, enableAutoPipelining, retryStrategy: backOff };
    client =
      topology.mode === 'standalone'
        ? new Redis(topology.url, { ...common, ...(topology.password ? { password: topology.password } : {}) })
        : new Redis({ ...common, ...sentinelOptions(topology, commandTimeout) });
  }
  // Without a listener an 'error' event would be thrown as an uncaught exception.
  client.on('error', (err: Error) => opts.onError?.(err));
  return client;
}
