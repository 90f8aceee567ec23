/**
 * The in-memory stores' building blocks for store-owned TTLs: deadlines on the injected Clock,
 * entries evicted when read after their deadline and by `sweep()`, so memory stays bounded even
 * for keys that are never read again.
 */
import type { Clock } from '../../application/ports/clock';
import { normTtl } from '../store-common';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

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

/** The width of a SweepQueue slot. */
const SLOT_MS = 10_000;

/**
 * Entries queued by the time they are next due (a timing wheel of SLOT_MS slots), so that the sweep
 * reads only what is due, never every entry: each entry is in at most one slot (`slot`), the one
 * of its earliest due time; a slot read before all its entries are due keeps the others.
 */
export class SweepQueue<E extends { slot: number }> {
  private readonly slots = new Map<number, E[]>();
  private queued = 0;

  /** Queues the entry for `due` (null: never), unless it is already queued no later. */
  schedule(entry: E, due: number | null): void {
    if (due === null) return;
    const slot = Math.floor(due / SLOT_MS);
    if (entry.slot !== -1 && entry.slot <= slot) return;
    const list = this.slots.get(slot);
    if (list === undefined) this.slots.set(slot, [entry]);
    else list.push(entry);
    entry.slot = slot;
    this.queued++;
  }

  /** Queue entries held (an entry that left its store counts until its slot is read). */
  get size(): number {
    return this.queued;
  }

  /**
   * Hands the due entries to `visit` (which returns when the entry is next due, or null), at most
   * `budget` of them; returns true when some are left for another call.
   */
  drain(now: number, budget: number, visit: (entry: E) => number | null): boolean {
    const last = Math.floor(now / SLOT_MS);
    let left = budget;
    const due = [...this.slots.keys()].filter((slot) => slot <= last).sort((a, b) => a - b);
    for (const slot of due) {
      const list = this.slots.get(slot) as E[];
      this.slots.delete(slot);
      const keep: E[] = [];
      let i = 0;
      for (; i < list.length && left > 0; i++, left--) {
        const entry = list[i] as E;
        this.queued--;
        if (entry.slot !== slot) continue; // moved to an earlier slot, or left its store
        entry.slot = -1;
        const next = visit(entry);
        if (next !== null && Math.floor(next / SLOT_MS) === slot) {
          entry.slot = slot; // not due yet, in this slot
          keep.push(entry);
          this.queued++;
        } else this.schedule(entry, next);
      }
      for (; i < list.length; i++) keep.push(list[i] as E);
      if (keep.length > 0) this.slots.set(slot, keep);
      if (left <= 0) return true;
    }
    return false;
  }
}

/** How long the memory stores let their callers run without a turn of the event loop. */
const LOOP_BUDGET_MS = 10;

/**
 * Keeps the callers of the memory stores from holding the event loop: a loop of awaited calls over
 * 10,000 sessions (a logout-all), or 10,000 calls started at once (a Promise.all), each answering at
 * once, would otherwise run in one turn. Once callers have run LOOP_BUDGET_MS in one turn, the next
 * calls wait in line; each later turn (setImmediate) lets a batch of them go on, as many as the last
 * turn's pace fits in half the budget (at most twice the last batch). Each call still runs
 * whole and alone, so what was atomic stays atomic. The real setImmediate (node:timers), never a faked one.
 */
export class LoopPacer {
  private turnStarted = -1;
  private readonly waiting: Array<() => void> = [];
  private batch = 64;
  private releasing = false;

  /** Undefined while the turn has time left (the caller goes on at once); else a promise of its place in a later turn. */
  pace(): Promise<void> | undefined {
    if (this.waiting.length > 0) return this.enqueue(); // in line behind the others (no clock read: a fan-out of 10,000)
    const now = performance.now();
    if (this.turnStarted < 0) {
      this.turnStarted = now;
      setImmediate(() => {
        if (!this.releasing) this.turnStarted = -1;
      });
    }
    return now - this.turnStarted < LOOP_BUDGET_MS ? undefined : this.enqueue();
  }

  private enqueue(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.releasing) {
        this.releasing = true;
        setImmediate(() => this.release(performance.now()));
      }
    });
  }

  /** One turn: lets a batch of the waiting calls go on (they run in this turn's microtasks), then the next turn the rest. */
  private release(started: number): void {
    this.turnStarted = started;
    const released = this.waiting.splice(0, this.batch);
    for (const resolve of released) resolve();
    setImmediate(() => {
      // The next batch: what fits in half the budget at this turn's pace, at most twice this one.
      const perCall = (performance.now() - started) / released.length;
      this.batch = Math.max(1, Math.min(2 * this.batch, 2048, Math.floor(LOOP_BUDGET_MS / 2 / Math.max(perCall, 0.001))));
      if (this.waiting.length > 0) this.release(performance.now());
      else {
        this.releasing = false;
        this.turnStarted = -1;
      }
    });
  }
}
