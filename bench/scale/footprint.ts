/**
 * What one session costs the store:
 * - `fillStep`: sessions written through the store (fill.ts), as deltas around the fill: Redis
 *   `INFO memory` used_memory and DBSIZE (summed over the masters), or on the memory store the
 *   V8 heap after a full GC (`global.gc`, node --expose-gc) around it;
 * - `loginSample`: real logins over HTTP (POST /auth/login on the admin app, one account each,
 *   each from its own client address), which also leave the refresh token's state. The keys they
 *   leave are told apart by space (keys.ts): a login's rate-limit log and the audit trail's stream
 *   are not the session's, and are reported beside it (`loginSide`).
 */
import { performance } from 'node:perf_hooks';
import { Client, round } from './http';
import { countBySpace, keysAddedSince, keySet, memoryUsage, scanEach, sessionSide } from './keys';
import { dbSize, usedMemory, type RedisDeployment } from './redis';
import { fillSessions } from './fill';
import { PASSWORD, sampleAccount, type Stack } from './stack';

declare const gc: undefined | (() => void);

/** The V8 heap in use after a full collection (the collection twice: weak references freed by the first). */
export function heapAfterGc(): number {
  if (typeof gc !== 'function') throw new Error('global.gc is missing: run with node --expose-gc (npm run bench:scale does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export interface FillStep {
  readonly sessions: number;
  readonly ms: number;
  /** Redis: used_memory delta; memory store: heap delta after GC. */
  readonly bytes: number;
  /** Redis: DBSIZE delta; memory store: null. */
  readonly keys: number | null;
}

/** Fills sessions `from`..`to`-1 and measures what they added. */
export async function fillStep(stack: Stack, redis: RedisDeployment | null, from: number, to: number): Promise<FillStep> {
  const before = redis ? { bytes: await usedMemory(redis), keys: await dbSize(redis) } : { bytes: heapAfterGc(), keys: 0 };
  const started = performance.now();
  await fillSessions(stack.admin.built, from, to);
  const ms = performance.now() - started;
  const after = redis ? { bytes: await usedMemory(redis), keys: await dbSize(redis) } : { bytes: heapAfterGc(), keys: 0 };
  return { sessions: to - from, ms, bytes: after.bytes - before.bytes, keys: redis ? after.keys - before.keys : null };
}

export interface LoginSample {
  readonly logins: number;
  readonly perSecond: number;
  /** Per session: used_memory delta (login-side bytes taken out) / n, or the heap delta / n on the memory store. */
  readonly bytesPerSession: number;
  /** Per session: the sum of MEMORY USAGE of the session-side keys the logins left / n (Redis). */
  readonly memoryUsagePerSession: number | null;
  readonly keysPerSession: number | null;
  /** Session-side keys per session, by space. */
  readonly keysBySpace: Record<string, number> | null;
  /** Per login: keys and bytes of its rate-limit log and the audit trail (not the session's). */
  readonly loginSide: { keys: number; bytes: number } | null;
}

/** Runs `n` logins, `parallel` at a time; accounts `offset`..`offset+n-1`. */
async function logins(stack: Stack, offset: number, n: number, parallel = 8): Promise<void> {
  const client = new Client(stack.admin.port, parallel);
  let next = offset;
  const worker = async () => {
    for (let i = next++; i < offset + n; i = next++)
      await client.adminLogin(sampleAccount(i).username, PASSWORD, `100.64.${i >> 8}.${i & 255}`);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  client.close();
}

/** Login-side bytes (MEMORY USAGE of the rate-limit logs and audit streams) under the prefix. */
async function loginSideBytes(redis: RedisDeployment, prefix: string): Promise<number> {
  let bytes = 0;
  await scanEach(redis.masters, prefix, async (keys, node) => {
    const side = new Map(keys.filter((k) => !sessionSide(k, prefix)).map((k) => [k, node]));
    for (const b of (await memoryUsage(redis.masters, side)).values()) bytes += b;
  });
  return bytes;
}

/** `n` real logins after `WARMUP` unmeasured ones (the first logins load scripts and create shared keys). */
export async function loginSample(stack: Stack, redis: RedisDeployment | null, prefix: string, n: number): Promise<LoginSample> {
  const WARMUP = 10;
  await logins(stack, 0, WARMUP);
  if (redis === null) {
    const heap0 = heapAfterGc();
    const started = performance.now();
    await logins(stack, WARMUP, n);
    const s = (performance.now() - started) / 1000;
    const bytes = (heapAfterGc() - heap0) / n;
    return {
      logins: n,
      perSecond: round(n / s),
      bytesPerSession: round(bytes),
      memoryUsagePerSession: null,
      keysPerSession: null,
      keysBySpace: null,
      loginSide: null,
    };
  }
  const keys0 = await keySet(redis.masters, prefix);
  const [mem0, side0] = [await usedMemory(redis), await loginSideBytes(redis, prefix)];
  const started = performance.now();
  await logins(stack, WARMUP, n);
  const s = (performance.now() - started) / 1000;
  const [mem1, side1] = [await usedMemory(redis), await loginSideBytes(redis, prefix)];
  const added = await keysAddedSince(redis.masters, prefix, keys0);
  const own = new Map([...added].filter(([k]) => sessionSide(k, prefix)));
  const usage = [...(await memoryUsage(redis.masters, own)).values()].reduce((a, b) => a + b, 0);
  const bySpace = Object.fromEntries(Object.entries(countBySpace(own.keys(), prefix)).map(([sp, c]) => [sp, round(c / n, 2)]));
  return {
    logins: n,
    perSecond: round(n / s),
    bytesPerSession: round((mem1 - mem0 - (side1 - side0)) / n),
    memoryUsagePerSession: round(usage / n),
    keysPerSession: round(own.size / n, 2),
    keysBySpace: bySpace,
    loginSide: { keys: round((added.size - own.size) / n, 2), bytes: round((side1 - side0) / n) },
  };
}
