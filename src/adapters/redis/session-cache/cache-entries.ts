/** The cached sessions of one process: LRU-bounded, each with a deadline, filled only by guarded reads. */
import type { StoredValue } from '../session-codec';
import { LruMap } from './lru';
import { type GuardedRead, ReadGuard } from './read-guard';

/** Until when an entry read at `now` is used: ttl-ms, and never past the key's own TTL (PTTL; -1 = none). */
export function entryDeadline(now: number, ttlMs: number, pttl: number): number {
  return pttl >= 0 ? Math.min(now + ttlMs, now + pttl) : now + ttlMs;
}

export interface CacheEntry {
  /** The token hash it was read for: another hash of the same key id (the first 32 hex digits) is not answered from it. */
  readonly hash: string;
  readonly value: StoredValue;
  /** The stored last-active as this instance last read or wrote it: a lower bound of what Redis holds. */
  knownLastActive: number;
  /** This instance's latest use of the session (0: none since it was read). */
  localLastActive: number;
  /** App-clock ms from which the entry is no longer used (session.local-cache.ttl-ms, and the key's own TTL). */
  readonly deadline: number;
}

export class CacheEntries {
  private readonly lru: LruMap<string, CacheEntry>;
  private readonly guard = new ReadGuard();

  constructor(maxEntries: number) {
    this.lru = new LruMap(maxEntries);
  }

  get size(): number {
    return this.lru.size;
  }

  /** The live entry of a record key (now the most recently used), or undefined; a lapsed one is dropped. */
  lookup(key: string, now: number): CacheEntry | undefined {
    const entry = this.lru.get(key);
    if (entry !== undefined && entry.deadline <= now) {
      this.lru.delete(key);
      return undefined;
    }
    return entry;
  }

  peek(key: string): CacheEntry | undefined {
    return this.lru.peek(key);
  }

  has(key: string): boolean {
    return this.lru.peek(key) !== undefined;
  }

  /** Reads a key for the cache; the reply may be cached only if `cacheable`. */
  read<T>(key: string, load: () => Promise<T>): Promise<GuardedRead<T>> {
    return this.guard.read(key, load);
  }

  insert(key: string, entry: CacheEntry): void {
    this.lru.set(key, entry);
  }

  /** The key was written: drops its entry, and no read of it in flight may fill the cache. True if an entry was dropped. */
  invalidate(key: string): boolean {
    this.guard.invalidate(key);
    return this.lru.delete(key);
  }

  /** Drops every entry; no read in flight may fill the cache. */
  flush(): void {
    this.guard.flush();
    this.lru.clear();
  }
}
