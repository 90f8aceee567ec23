/** A Map bounded to `max` entries that forgets the least recently used entry first. */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error(`LruMap: max must be at least 1 (got ${max})`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used one. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** The value, leaving the order as it is. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Stores `value` as the most recently used; returns how many old entries were evicted to stay within `max`. */
  set(key: K, value: V): number {
    this.map.delete(key);
    this.map.set(key, value);
    let evicted = 0;
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (oldest.done === true) break;
      this.map.delete(oldest.value);
      evicted++;
    }
    return evicted;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}
