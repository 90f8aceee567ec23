/**
 * Reading sessions an index names: each hash's session key, and the previous layout's record and
 * last-active keys where it is missing (session-values.ts): where every key is on one connection,
 * standalone and Sentinel, one MGET for them all (500 per command) and one more for those missing;
 * else one GET per session, and an MGET of the previous layout's two keys where that found nothing.
 * And what an index entry's session is found to be.
 */
import type { ListedSession } from '../../application/ports/session-store';
import type { SessionRecord } from '../../domain/session';
import type { RedisKeys } from './key-layout';
import type { RedisClient } from './redis-client';
import { decodeStored } from './session-codec';
import { storedSessionOf } from './session-values';

/**
 * How long an index entry whose session record is missing may be a login still being written
 * (indexed, record not yet there) rather than dead. Missing records younger than this are
 * skipped by listings but never pruned: pruning them would leave that login live and unlisted.
 */
export const PENDING_GRACE_MS = 60_000;

/** Sessions per MGET when one command may read them all (one key each). */
const MGET_SESSIONS = 500;

export interface IndexEntry {
  readonly hash: string;
  readonly score: number;
}

/** One index entry as read back: its listed session, or why not. */
export type Found = { readonly kind: 'active'; readonly session: ListedSession } | { readonly kind: 'missing' } | { readonly kind: 'dead' };

/** The record of an active session, or null for a missing key, a tombstone or corrupt data. */
export function activeRecord(value: string | null | undefined): SessionRecord | null {
  const stored = decodeStored(value);
  return stored?.state === 'active' ? stored.record : null;
}

/** [member, score, ...] as entries. */
export function pairs(flat: readonly string[]): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ hash: flat[i] as string, score: Number(flat[i + 1]) });
  return out;
}

/** A tombstone or corrupt record is dead; a missing one only once it can no longer be a login being written. */
export function isDead(f: Found, missingIsOld: boolean): boolean {
  return f.kind === 'dead' || (f.kind === 'missing' && missingIsOld);
}

/** Not past expiresAt at `now` (a record without expiresAt never expires). */
export function current(record: SessionRecord, now: number): boolean {
  return record.expiresAt === null || record.expiresAt > now;
}

export class SessionReads {
  /** `oneConnection`: every key is on one server (standalone, Sentinel), so one MGET reads many sessions. */
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly oneConnection: boolean,
  ) {}

  /** Each hash's [session value, previous layout's last-active value (null for a session of one key)], in order. */
  async raw(type: string, hashes: readonly string[]): Promise<Array<readonly [string | null, string | null]>> {
    const k = this.keys;
    if (!this.oneConnection) {
      return Promise.all(
        hashes.map(async (h): Promise<readonly [string | null, string | null]> => {
          const v = await this.client.get(k.session(type, h));
          if (v !== null) return [v, null];
          const [legacy, last] = await this.client.mget(k.legacySession(type, h), k.lastActive(type, h));
          return [legacy ?? null, last ?? null];
        }),
      );
    }
    const chunks: string[][] = [];
    for (let i = 0; i < hashes.length; i += MGET_SESSIONS) chunks.push(hashes.slice(i, i + MGET_SESSIONS) as string[]);
    const values = (await Promise.all(chunks.map((c) => this.client.mget(c.map((h) => k.session(type, h)))))).flat();
    const out = hashes.map((_, i): readonly [string | null, string | null] => [values[i] ?? null, null]);
    // Sessions of the previous release (until they are gone): their record and last-active keys, one more MGET.
    const missing = hashes.flatMap((h, i) => (values[i] === null && k.session(type, h) !== k.legacySession(type, h) ? [i] : []));
    if (missing.length === 0) return out;
    for (let from = 0; from < missing.length; from += MGET_SESSIONS) {
      const part = missing.slice(from, from + MGET_SESSIONS);
      const legacy = await this.client.mget(
        part.flatMap((i) => [k.legacySession(type, hashes[i] as string), k.lastActive(type, hashes[i] as string)]),
      );
      part.forEach((i, j) => {
        out[i] = [legacy[2 * j] ?? null, legacy[2 * j + 1] ?? null];
      });
    }
    return out;
  }

  /**
   * Each hash's session as found: active (listed), missing, or dead (tombstone, corrupt). Many
   * (one user's 10,000 sessions) are decoded MGET_SESSIONS at a time, the event loop yielded
   * between chunks.
   */
  async find(type: string, hashes: readonly string[]): Promise<Found[]> {
    const raw = await this.raw(type, hashes);
    const out: Found[] = [];
    for (let i = 0; i < raw.length; i += MGET_SESSIONS) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (let j = i; j < Math.min(raw.length, i + MGET_SESSIONS); j++) {
        const [value, last] = raw[j] as readonly [string | null, string | null];
        out.push(foundOf(hashes[j] as string, value, last));
      }
    }
    return out;
  }
}

/** What one session's values say (raw's pair). */
export function foundOf(hash: string, value: string | null, last: string | null): Found {
  if (value === null) return { kind: 'missing' };
  const stored = storedSessionOf(hash, value, last);
  if (stored === null || stored.state !== 'active') return { kind: 'dead' };
  return { kind: 'active', session: { tokenHash: hash, record: stored.record, lastActiveAt: stored.lastActiveAt } };
}
