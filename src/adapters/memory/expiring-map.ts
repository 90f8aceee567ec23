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
  /** One bounded step of the sweep, for a store that can sweep in steps; true when more is due. */
  sweepStep?(): boolean;
}

/** The moment a TTL started now ends, on the store clock; null = kept forever. */
export function deadlineAfter(clock: Clock, ttlMs: number | null): number | null {
  return ttlMs === null ? null : clock.now() + normTtl(ttlMs);
}

export interface Expiring<V> {
  value: V;
  /** On the store clock; null = kept forever. */
  readonly deadline: number | null;
  readonly key: string;
  /** Its SweepQueue slot, -1 when in none. */
  slot: number;
}

/** Entries the background sweep hands over per step (one turn of the event loop). */
export const SWEEP_STEP = 5_000;

/** A map whose entries end at a deadline on the store clock; the sweep reads only what is due (SweepQueue). */
export class ExpiringMap<V> implements Sweepable {
  private readonly entries = new Map<string, Expiring<V>>();
  private readonly queue = new SweepQueue<Expiring<V>>();

  constructor(private readonly clock: Clock) {}

  /** The entry if its deadline has not passed; evicts it if it has. */
  live(key: string): Expiring<V> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.deadline !== null && entry.deadline <= this.clock.now()) {
      this.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, value: V, deadline: number | null): Expiring<V> {
    const previous = this.entries.get(key);
    if (previous !== undefined) this.queue.remove(previous);
    const entry = { value, deadline, key, slot: -1 };
    this.entries.set(key, entry);
    this.queue.schedule(entry, deadline);
    return entry;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.queue.remove(entry);
    this.entries.delete(key);
  }

  sweep(): number {
    return this.drain(Infinity).removed;
  }

  /** One bounded step of the sweep (`budget` due entries at most); true when more is due. */
  sweepStep(budget = SWEEP_STEP): boolean {
    return this.drain(budget).more;
  }

  private drain(budget: number): { removed: number; more: boolean } {
    const now = this.clock.now();
    let removed = 0;
    const more = this.queue.drain(now, budget, (entry) => {
      if (this.entries.get(entry.key) !== entry) return null;
      if (entry.deadline === null || entry.deadline > now) return entry.deadline;
      this.entries.delete(entry.key);
      removed++;
      return null;
    });
    return { removed, more };
  }

  size(): number {
    return this.entries.size;
  }
}

/** The width of a SweepQueue slot. */
const SLOT_MS = 10_000;

/**
 * Entries queued by the time they are next due (a timing wheel of SLOT_MS slots, each a Set), so
 * that the sweep reads only what is due, never every entry: an entry is in at most one slot
 * (`slot`), the one of its due time, and leaves it at once when it goes (nothing stale is kept).
 */
export class SweepQueue<E extends { slot: number }> {
  private readonly slots = new Map<number, Set<E>>();
  private queued = 0;

  /** Queues the entry for `due` (null: never, out of the queue). */
  schedule(entry: E, due: number | null): void {
    if (due === null) {
      this.remove(entry);
      return;
    }
    const slot = Math.floor(due / SLOT_MS);
    if (entry.slot === slot) return;
    this.remove(entry);
    let set = this.slots.get(slot);
    if (set === undefined) this.slots.set(slot, (set = new Set()));
    set.add(entry);
    entry.slot = slot;
    this.queued++;
  }

  remove(entry: E): void {
    if (entry.slot === -1) return;
    const set = this.slots.get(entry.slot);
    if (set?.delete(entry) === true) {
      this.queued--;
      if (set.size === 0) this.slots.delete(entry.slot);
    }
    entry.slot = -1;
  }

  get size(): number {
    return this.queued;
  }

  /**
   * Hands the entries of the due slots to `visit` (which returns when the entry is next due, or
   * null), at most `budget` of them; returns true when some are left for another call.
   */
  drain(now: number, budget: number, visit: (entry: E) => number | null): boolean {
    const last = Math.floor(now / SLOT_MS);
    const due = [...this.slots.keys()].filter((slot) => slot <= last).sort((a, b) => a - b);
    let left = budget;
    for (const slot of due) {
      const set = this.slots.get(slot);
      if (set === undefined) continue;
      const notYet: Array<readonly [E, number]> = [];
      for (const entry of set) {
        if (left <= 0) break;
        left--;
        this.remove(entry);
        const next = visit(entry);
        if (next !== null && Math.floor(next / SLOT_MS) === slot) notYet.push([entry, next]);
        else this.schedule(entry, next);
      }
      for (const [entry, next] of notYet) this.schedule(entry, next);
      if (left <= 0) return this.slots.has(slot) || due.some((s) => s > slot && this.slots.has(s));
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
