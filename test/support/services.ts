/**
 * Tests that need Redis (or MariaDB) run whenever it is reachable. Without it they are
 * skipped with a loud notice, except under CI=true, where a missing service fails the run.
 */
import Redis from 'ioredis';
import { isCluster, type RedisClient } from '../../src/adapters/redis/redis-client';
import { randomBytes } from 'node:crypto';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisUp: Promise<boolean> | undefined;

export function redisAvailable(): Promise<boolean> {
  redisUp ??= (async () => {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return redisUp;
}

/**
 * Call inside a `describe` body's `before` hook: skips the suite loudly when Redis is down,
 * or fails it under CI=true.
 */
export async function requireRedis(ctx: Mocha.Context): Promise<void> {
  if (await redisAvailable()) return;
  if (process.env.CI === 'true') throw new Error(`Redis is not reachable at ${REDIS_URL} and CI=true: Redis tests must run in CI`);
  console.warn(`\n  !!! SKIPPING Redis tests: Redis not reachable at ${REDIS_URL} (set REDIS_URL or start redis-server) !!!\n`);
  ctx.skip();
}

/** A key prefix unique to this test run (and this suite), so runs never collide and cleanup is exact. */
export function testKeyPrefix(label: string): string {
  return `agtest:${process.pid}:${randomBytes(4).toString('hex')}:${label}:`;
}

/**
 * Deletes every key under a prefix with SCAN (never KEYS), one DEL per key (keys of any slot);
 * on a cluster client, SCAN on every master.
 */
export async function deleteByPrefix(client: RedisClient, prefix: string): Promise<void> {
  const remove = (keys: string[]) => Promise.all(keys.map((k) => client.del(k)));
  if (!isCluster(client)) return scanPrefix(client, prefix, remove);
  for (const node of client.nodes('master')) await scanPrefix(node, prefix, remove);
}

async function scanPrefix(node: Redis, prefix: string, remove: (keys: string[]) => Promise<unknown>): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await remove(keys);
  } while (cursor !== '0');
}
