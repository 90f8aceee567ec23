/**
 * The last-active writes of the session cache (session.active-timeout). A request answered from
 * the cache records its time here instead of writing it to Redis at once; the write is made later,
 * coalesced per session, and never too late for another instance's verdict:
 *
 * - `knownLastActive` is what Redis held when this instance last read or wrote it: a lower bound
 *   of the stored value, which only grows while the session lives.
 * - A use at `now` with `now - knownLastActive >= idle * WRITE_THROUGH` is written before the
 *   request is answered (write-through). Otherwise it waits here.
 * - A waiting touch is written once `now - knownLastActive >= idle * DUE` (the sweep, every
 *   SWEEP_MS). So a touch is in Redis at the latest idle/2 + SWEEP_MS + one round trip after the
 *   stored value it was measured from: while any instance holds an unwritten touch, the stored
 *   value is younger than that, which is less than the idle limit for active-timeout >= 1 s; an
 *   instance that reads "idle past the limit" from Redis therefore reads the truth.
 * - A touch older than the idle limit no longer keeps the session alive and is dropped.
 */
import type { LoginType } from '../../../domain/login-type';

export const WRITE_THROUGH = 0.5;
export const DUE = 0.25;
export const SWEEP_MS = 250;

export interface PendingTouch {
  readonly loginType: LoginType;
  readonly tokenHash: string;
  /** When the session was used (the app clock's ms). */
  readonly at: number;
  readonly idleMs: number;
  /** The stored last-active this touch was measured from. */
  readonly knownLastActive: number;
}

/** Should a use at `now` be written before the request is answered? */
export function mustWriteThrough(now: number, knownLastActive: number, idleMs: number): boolean {
  return now - knownLastActive >= idleMs * WRITE_THROUGH;
}

/** What the touch script leaves in Redis after a touch at `at` found `before` there (it never revives a frozen session). */
export function storedAfterTouch(at: number, before: number, idleMs: number): number {
  return at > before && at - before <= idleMs ? at : before;
}

/** The waiting touches, one per session (the latest). */
export class PendingTouches {
  private readonly byKey = new Map<string, PendingTouch>();

  get size(): number {
    return this.byKey.size;
  }

  /** Records a use; an older waiting touch of the same session is replaced. */
  record(key: string, touch: PendingTouch): void {
    const old = this.byKey.get(key);
    if (old !== undefined && old.at >= touch.at) return;
    this.byKey.set(key, old === undefined ? touch : { ...touch, knownLastActive: Math.min(old.knownLastActive, touch.knownLastActive) });
  }

  peek(key: string): PendingTouch | undefined {
    return this.byKey.get(key);
  }

  /** Removes and returns the waiting touch of a session (it is about to be written). */
  take(key: string): PendingTouch | undefined {
    const touch = this.byKey.get(key);
    if (touch !== undefined) this.byKey.delete(key);
    return touch;
  }

  /** Forgets a session's waiting touch (the session was removed). */
  drop(key: string): void {
    this.byKey.delete(key);
  }

  /** Removes and returns the touches due at `now` (or every one with `all`); drops those too old to matter. */
  takeDue(now: number, all = false): Array<[string, PendingTouch]> {
    const due: Array<[string, PendingTouch]> = [];
    for (const [key, touch] of this.byKey) {
      if (now - touch.at > touch.idleMs) this.byKey.delete(key);
      else if (all || now - touch.knownLastActive >= touch.idleMs * DUE) {
        this.byKey.delete(key);
        due.push([key, touch]);
      }
    }
    return due;
  }

  /** Puts back a touch whose write failed, unless a newer one arrived meanwhile. */
  restore(key: string, touch: PendingTouch): void {
    if (!this.byKey.has(key)) this.byKey.set(key, touch);
  }
}
