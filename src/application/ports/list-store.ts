/**
 * Short append-only lists (the example handlers' created records). Atomic per call and shared
 * by every instance on the same store (Redis: one script per append, one LRANGE per read).
 */
export interface ListStore {
  /**
   * Appends `item`, keeps only the newest `maxLength` items, and (re)sets the list's TTL to
   * `ttlMs` from now. Returns the list's length after the append.
   */
  append(key: string, item: string, maxLength: number, ttlMs: number): Promise<number>;
  /** Every item, oldest first; [] for a missing or expired list. */
  list(key: string): Promise<string[]>;
}
