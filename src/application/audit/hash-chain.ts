/**
 * Tamper evidence for the stored audit trail (ASVS 5.0 16.4.2): each stored event carries
 * `hash = SHA-1(previous hash + "\n" + the event's JSON as stored)`, chained per log of a login
 * type, the first event of a log on the empty string. An event edited in place no longer matches
 * its hash; an event removed, or edited with its hash recomputed, no longer matches the next one's.
 * SHA-1 because the chain is computed where the append is atomic, in a Redis script, whose Lua has
 * only SHA-1; the chain is not keyed, so whoever can rewrite the whole log from a point on can
 * rewrite the chain too: keep a copy of recent hashes elsewhere (the `log` or `webhook` sink).
 */
import { createHash } from 'node:crypto';

export function chainHash(previous: string, json: string): string {
  return createHash('sha1').update(`${previous}\n${json}`).digest('hex');
}

/** One stored event as the chain sees it: where it is, its JSON as stored, its hash. */
export interface ChainEntry {
  readonly position: string;
  readonly json: string;
  readonly hash: string;
  /** The event's id, as the store reads it (null: unreadable). */
  readonly eventId: string | null;
}

/**
 * The first entry whose hash does not follow from the entry before it: it was edited, or the one
 * before it was, or entries between them were removed (one entry alone cannot tell which).
 */
export interface ChainBreak {
  /** Where it is (a stream id, a ring position). */
  readonly position: string;
  readonly eventId: string | null;
  /** Where the entry before it is (null: none). */
  readonly after: string | null;
}

export interface ChainReport {
  readonly checked: number;
  readonly first: string | null;
  readonly last: string | null;
  /** The first entry is the start of the log (its hash is over the empty string); else it is taken as given (the anchor). */
  readonly fromStart: boolean;
  readonly firstBreak: ChainBreak | null;
}

/** Checks entries in stored order, one at a time; stops counting at the first break. */
export class ChainVerifier {
  private previous: string | null = null;
  private previousPosition: string | null = null;
  private checked = 0;
  private first: string | null = null;
  private last: string | null = null;
  private fromStart = false;
  private broken: ChainBreak | null = null;

  /** false once the chain is broken (the caller may stop reading). */
  add(entry: ChainEntry): boolean {
    if (this.broken !== null) return false;
    this.checked++;
    this.last = entry.position;
    if (this.previous === null) {
      this.first = entry.position;
      this.fromStart = chainHash('', entry.json) === entry.hash;
    } else if (chainHash(this.previous, entry.json) !== entry.hash) {
      this.broken = { position: entry.position, eventId: entry.eventId, after: this.previousPosition };
      return false;
    }
    this.previous = entry.hash;
    this.previousPosition = entry.position;
    return true;
  }

  report(): ChainReport {
    return { checked: this.checked, first: this.first, last: this.last, fromStart: this.fromStart, firstBreak: this.broken };
  }
}
