/**
 * Bulk ends on the memory session store (a kick-all, a logout-all, a replacing login over thousands
 * of sessions) without holding the event loop: the revocation is made at once and whole (each
 * session's state turns into its tombstone's in the same synchronous step: from then on its token
 * reads as kicked out or replaced), while taking the sessions out of the indexes, and dropping
 * their records, goes BULK_STEP sessions per turn of the event loop. Until then a listing skips
 * them (they are no longer active); a user's `total` may count them for those few turns.
 */
import { setImmediate } from 'node:timers';
import type { TombstoneState } from '../../domain/session';
import type { ActiveEntry, SessionEntry } from './session-entries';
import type { TypeSessions } from './session-indexes';

/** Sessions taken out of the indexes per turn of the event loop (and at once, for an end of at most this many). */
export const BULK_STEP = 1_000;

export class BulkEnds {
  private readonly pending: Array<{ readonly t: TypeSessions; readonly entries: readonly ActiveEntry[] }> = [];
  private scheduled = false;

  /** Turns active sessions into tombstones that keep their deadline. */
  end(t: TypeSessions, entries: readonly ActiveEntry[], state: TombstoneState): void {
    for (const entry of entries) (entry as SessionEntry).state = state;
    for (let from = 0; from < entries.length; from += BULK_STEP) {
      const part = entries.slice(from, from + BULK_STEP);
      // An end of at most BULK_STEP sessions leaves the indexes at once; a bigger one entirely in later turns.
      if (entries.length <= BULK_STEP) this.unindex(t, part);
      else this.pending.push({ t, entries: part });
    }
    if (this.pending.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.step());
    }
  }

  /** Whether index entries of ended sessions are still to go. */
  get busy(): boolean {
    return this.pending.length > 0;
  }

  private step(): void {
    const next = this.pending.shift();
    if (next !== undefined) this.unindex(next.t, next.entries);
    if (this.pending.length > 0) setImmediate(() => this.step());
    else this.scheduled = false;
  }

  private unindex(t: TypeSessions, entries: readonly ActiveEntry[]): void {
    // An entry evicted meanwhile (its retention over) has already left the indexes, and its record.
    const left = entries.filter((e) => (e as SessionEntry).record !== null);
    t.unindexMany(left);
    for (const e of left) (e as SessionEntry).record = null;
  }
}
