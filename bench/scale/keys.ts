/**
 * Counting what the service keeps in Redis, by walking the keyspace (SCAN, never KEYS) of every
 * master: which keys exist under a prefix, how many bytes each holds (`MEMORY USAGE ... SAMPLES 0`:
 * exact, every element of a collection counted), the largest ones, and their time to live.
 *
 * A key's "space" is what the layout (src/adapters/redis/key-layout.ts) calls it: the first part
 * of its name after the prefix (`s`, `a`, `u`, `t`, `all`, ...), and for a key-value key also its
 * namespace (`kv:rt`, `kv:rtacc`, ...), hash tags removed. So the same session reads the same on
 * standalone (`<p>s:admin:<hash>`) and on a cluster (`<p>s:{admin:<hash>}`), and a new layout's
 * keys are counted without this file knowing their names.
 */
import type Redis from 'ioredis';

/** Keys a login writes that are not the session's: its rate-limit log and the audit trail's streams. */
export const LOGIN_SIDE_SPACES: ReadonlySet<string> = new Set(['rl', 'ev', 'evb', 'wh']);

/** The space of `key` (see above); null when the key is not under `prefix`. */
export function spaceOf(key: string, prefix: string): string | null {
  if (!key.startsWith(prefix)) return null;
  const parts = key.slice(prefix.length).split(':');
  const clean = (s: string | undefined) => (s ?? '').replace(/[{}]/g, '');
  const first = clean(parts[0]);
  return first === 'kv' && parts.length > 2 ? `kv:${clean(parts[1])}` : first;
}

/** Is the key one of a session's (not a login's rate-limit log nor the audit trail)? */
export function sessionSide(key: string, prefix: string): boolean {
  const space = spaceOf(key, prefix);
  return space !== null && !LOGIN_SIDE_SPACES.has(space);
}

/** Calls `each` with every SCAN page of keys under `prefix`, master by master (nothing kept: a million sessions' keys stream through). */
export async function scanEach(
  masters: readonly Redis[],
  prefix: string,
  each: (keys: readonly string[], node: number) => Promise<void> | void,
): Promise<void> {
  for (const [node, client] of masters.entries()) {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 2000);
      cursor = next;
      if (keys.length > 0) await each(keys, node);
    } while (cursor !== '0');
  }
}

/** Every key under `prefix`, on every master: key -> index of the master that holds it. */
export async function keysUnder(masters: readonly Redis[], prefix: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  await scanEach(masters, prefix, (keys, node) => keys.forEach((k) => found.set(k, node)));
  return found;
}

/** The names of every key under `prefix` (a Set: half the memory of keysUnder's map, for a "before" to compare with). */
export async function keySet(masters: readonly Redis[], prefix: string): Promise<Set<string>> {
  const seen = new Set<string>();
  await scanEach(masters, prefix, (keys) => keys.forEach((k) => seen.add(k)));
  return seen;
}

/** The keys under `prefix` that are not in `before`: key -> master index. */
export async function keysAddedSince(masters: readonly Redis[], prefix: string, before: ReadonlySet<string>): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  await scanEach(masters, prefix, (keys, node) => keys.forEach((k) => before.has(k) || added.set(k, node)));
  return added;
}

/** Counts by space. */
export function countBySpace(keys: Iterable<string>, prefix: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) {
    const s = spaceOf(k, prefix) ?? '?';
    out[s] = (out[s] ?? 0) + 1;
  }
  return out;
}

/** One answer per key, asked in pipelines of `batch` on the master that holds it. */
async function perKey<T>(
  masters: readonly Redis[],
  keys: ReadonlyMap<string, number>,
  ask: (p: ReturnType<Redis['pipeline']>, key: string) => void,
  batch = 1000,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const byNode = new Map<number, string[]>();
  for (const [k, n] of keys) {
    const list = byNode.get(n);
    if (list === undefined) byNode.set(n, [k]);
    else list.push(k);
  }
  for (const [n, list] of byNode) {
    const client = masters[n] as Redis;
    for (let i = 0; i < list.length; i += batch) {
      const chunk = list.slice(i, i + batch);
      const p = client.pipeline();
      for (const k of chunk) ask(p, k);
      const replies = (await p.exec()) ?? [];
      chunk.forEach((k, j) => out.set(k, replies[j]?.[1] as T));
    }
  }
  return out;
}

/** MEMORY USAGE (SAMPLES 0) of each key; a key gone meanwhile counts 0. */
export async function memoryUsage(masters: readonly Redis[], keys: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const raw = await perKey<number | null>(masters, keys, (p, k) => p.call('MEMORY', 'USAGE', k, 'SAMPLES', '0'));
  return new Map([...raw].map(([k, v]) => [k, Number(v ?? 0)]));
}

/** PTTL of each key: ms left, -1 for no expiry, -2 gone. */
export function ttls(masters: readonly Redis[], keys: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  return perKey<number>(masters, keys, (p, k) => p.pttl(k));
}

export interface SpaceFigure {
  keys: number;
  bytes: number;
}

export interface Census {
  readonly keys: number;
  readonly bytes: number;
  readonly bySpace: Record<string, SpaceFigure>;
  /** The largest keys, largest first, their prefix removed. */
  readonly largest: ReadonlyArray<{ key: string; space: string; bytes: number }>;
}

/** Every key under `prefix`: counts and MEMORY USAGE by space, and the `top` largest keys (a `--memkeys`-like walk, streamed). */
export async function census(masters: readonly Redis[], prefix: string, top = 5): Promise<Census> {
  const bySpace: Record<string, SpaceFigure> = {};
  let [keys, bytes] = [0, 0];
  const largest: Array<{ key: string; space: string; bytes: number }> = [];
  await scanEach(masters, prefix, async (page, node) => {
    const usage = await memoryUsage(masters, new Map(page.map((k) => [k, node])));
    for (const [k, b] of usage) {
      const space = spaceOf(k, prefix) ?? '?';
      const f = (bySpace[space] ??= { keys: 0, bytes: 0 });
      f.keys++;
      f.bytes += b;
      keys++;
      bytes += b;
      if (top > 0 && (largest.length < top || b > (largest[largest.length - 1]?.bytes ?? 0))) {
        largest.push({ key: k.slice(prefix.length), space, bytes: b });
        largest.sort((x, y) => y.bytes - x.bytes);
        largest.length = Math.min(largest.length, top);
      }
    }
  });
  return { keys, bytes, bySpace, largest };
}

/** UNLINKs these keys (one key per command: on a cluster two keys of one master may be two slots). */
export async function unlinkKeys(masters: readonly Redis[], keys: ReadonlyMap<string, number>): Promise<void> {
  await perKey<number>(masters, keys, (p, k) => p.unlink(k));
}

/** Deletes every key under `prefix`, on every master. */
export async function dropPrefix(masters: readonly Redis[], prefix: string): Promise<number> {
  const keys = await keysUnder(masters, prefix);
  await unlinkKeys(masters, keys);
  return keys.size;
}
