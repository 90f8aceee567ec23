/**
 * A one-shot connection for a health probe: its own socket (not the shared client's), no retries,
 * no offline queue, every step bounded by the probe timeout, always closed afterwards.
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
