/**
 * The in-memory stores' building blocks for store-owned TTLs: deadlines on the injected Clock,
 * entries evicted when read after their deadline and by `sweep()`, so memory stays bounded even
 * for keys that are never read again.
 */
import type { Clock } from '../../application/ports/clock';
import { normTtl } from '../store-common';

/** What the backend's sweep timer and its size() walk over. */
export interface Sweepable {
  /** Evicts what has expired on the store clock; returns how many top-level entries went. */
  sweep(): number;
  /** Entries held, index entries included (expired ones count until evicted). */
  size(): number;
}

/** The moment a TTL started now ends, on the store clock; null = kept forever. */
export function deadlineAfter(clock: Clock, ttlMs: number | null): number | null {
  return ttlMs === null ? null : clock.now() + normTtl(ttlMs);
}

export interface Expiring<V> {
  value: V;
  /** On the store clock; null = kept forever. */
  readonly deadline: number | null;
}

/** A map whose entries end at a deadline on the store clock. */
export class ExpiringMap<V> implements Sweepable {
  private readonly entries = new Map<string, Expiring<V>>();

  constructor(private readonly clock: Clock) {}

  /** The entry if its deadline has not passed; evicts it if it has. */
  live(key: string): Expiring<V> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.deadline !== null && entry.deadline <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, value: V, deadline: number | null): Expiring<V> {
    const entry = { value, deadline };
    this.entries.set(key, entry);
    return entry;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.deadline !== null && entry.deadline <= now) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  size(): number {
    return this.entries.size;
  }
}
