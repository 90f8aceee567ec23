/**
 * What the health probes share: a one-shot connection (its own socket, not the shared client's; no
 * retries, no offline queue, every step bounded by the probe timeout, always closed afterwards), a
 * bound on one answer, and how a node's address is written.
 */
import Redis, { type RedisOptions } from 'ioredis';

export async function withProbeConnection<T>(
  target: Pick<RedisOptions, 'host' | 'port' | 'username' | 'password'>,
  timeoutMs: number,
  run: (conn: Redis) => Promise<T>,
): Promise<T> {
  const conn = new Redis({
    ...target,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  conn.on('error', () => undefined);
  try {
    await conn.connect();
    return await run(conn);
  } finally {
    conn.disconnect();
  }
}

/** `p`, or a rejection with `message` once `ms` have passed; a late rejection of `p` is not left unhandled. */
export function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  p.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** host:port, with an IPv6 host in brackets. */
export function hostPort(host: string, port: number | string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}
