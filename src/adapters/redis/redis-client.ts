/**
 * The one place an ioredis client is configured for production: commands fail fast instead
 * of hanging while Redis is down, reconnects back off (capped), and connection errors are
 * reported instead of crashing the process. Standalone connects to one URL; Sentinel uses
 * ioredis' own Sentinel support (it asks the Sentinels for the master, checks the role of
 * what it reached, and follows a failover on its own).
 */
import Redis, { type Cluster, type RedisOptions } from 'ioredis';

/** A connection to the data: one server (standalone, Sentinel) or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  /** Ms before a command (including one waiting in the offline queue) is rejected. Default 2000. */
  readonly commandTimeoutMs?: number;
  /** Ms to establish the TCP connection. Default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * Batch commands issued in the same tick into one write (fewer syscalls on the hot path).
   * Safe with the store's Lua scripts (ioredis resends EVAL on NOSCRIPT). Default true.
   */
  readonly enableAutoPipelining?: boolean;
  /** Called for every connection error (ioredis emits them while it reconnects). */
  readonly onError?: (err: Error) => void;
}

/** Where the data lives: one server, or the master a set of Sentinels names. */
export type RedisTopology =
  | {
      readonly mode: 'standalone';
      readonly url: string;
      /** Overrides the URL's password ('' or absent: the URL's own). */
      readonly password?: string;
    }
  | {
      readonly mode: 'sentinel';
      readonly sentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
      readonly masterName: string;
      /** AUTH of the Sentinels ('' or absent: none). */
      readonly sentinelPassword?: string;
      /** Only its user, password and database are used ('' or absent: none, db 0). */
      readonly url?: string;
      readonly password?: string;
    };

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

function sentinelOptions(t: Extract<RedisTopology, { mode: 'sentinel' }>, commandTimeoutMs: number): RedisOptions {
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

export function createRedisClient(target: string | RedisTopology, opts: RedisClientOptions = {}): Redis {
  const topology: RedisTopology = typeof target === 'string' ? { mode: 'standalone', url: target } : target;
  const commandTimeout = opts.commandTimeoutMs ?? 2000;
  const common: RedisOptions = {
    // A command is retried on one reconnect at most, then rejected: callers fail closed.
    maxRetriesPerRequest: 1,
    commandTimeout,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
    enableAutoPipelining: opts.enableAutoPipelining ?? true,
    // Reconnect forever, waiting 100 ms, 200 ms, ... at most 1 s between attempts.
    retryStrategy: (times: number) => Math.min(times * 100, 1000),
  };
  const client =
    topology.mode === 'standalone'
      ? new Redis(topology.url, { ...common, ...(topology.password ? { password: topology.password } : {}) })
      : new Redis({ ...common, ...sentinelOptions(topology, commandTimeout) });
  // Without a listener an 'error' event would be thrown as an uncaught exception.
  client.on('error', (err: Error) => opts.onError?.(err));
  return client;
}
