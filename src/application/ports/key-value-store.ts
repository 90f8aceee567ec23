/**
 * Small atomic key-value primitives the protection features are built from
 * (captcha answers, nonces, refresh tokens, idempotency locks, failure counters).
 * TTLs are in ms and owned by the store. Every method is atomic under concurrency.
 */
/** One key to write, with its TTL (ms). */
export interface KeyValueEntry {
  readonly key: string;
  readonly value: string;
  readonly ttlMs: number;
}

export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number | null): Promise<void>;
  /**
   * Writes every entry, each with its TTL. Keys about one subject (the same text after the first
   * ':', e.g. `rt:admin:<h>` and `rtused:admin:<h>`) are written in one atomic step: a reader (or
   * a crash, or a store error) sees all of them or none. A sharded store (Redis Cluster) writes
   * each subject's entries as one step, in the order the entries are given: list them so that
   * every prefix is safe (pointers before the token they make usable). Single-node stores write
   * everything in one step. Keys listed twice: the last entry wins.
   */
  setMany(entries: readonly KeyValueEntry[]): Promise<void>;
  /** Set only if absent; true when this call created the key (the lock / nonce was free). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Read and remove in one step; of concurrent callers at most one gets the value. */
  getAndDelete(key: string): Promise<string | null>;
  delete(key: string): Promise<boolean>;
  /**
   * While `key` still holds `expected`, delete it and write `next` (with its TTL); true when this
   * call did both. Of concurrent callers at most one succeeds. One atomic step when both keys are
   * about one subject (see setMany), so once `key` is gone `next` is there (consume a token and
   * record its use); across subjects on a sharded store, the delete decides and the write follows.
   */
  deleteIfEqualsAndSet(key: string, expected: string, next: KeyValueEntry): Promise<boolean>;
  /** Delete only while the key still holds `expected` (release a lock we own). */
  deleteIfEquals(key: string, expected: string): Promise<boolean>;
  /**
   * One atomic step: when the key is absent, store `value` (with the TTL) and return null;
   * otherwise leave it and return the value it holds (Idempotency-Key records: begin or look up).
   */
  setIfAbsentOrGet(key: string, value: string, ttlMs: number): Promise<string | null>;
  /** Replace the value and its TTL only while the key still holds `expected`; true when replaced. */
  replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Increment a counter; the TTL is set when the counter is created and not extended.
   * Returns the new count and the ms left before it expires.
   */
  increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }>;
}
