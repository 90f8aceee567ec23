/** How the in-memory session store keeps a session or a tombstone. */
import { sessionDeviceType } from '../../domain/device-type';
import type { SessionRecord, TombstoneState } from '../../domain/session';

/** A stored active session, with the fields the indexes and filters need kept beside the JSON. */
export interface ActiveEntry {
  readonly kind: 'active';
  /** The record as JSON, as Redis holds it: callers never share (or mutate) the stored object. */
  readonly json: string;
  /** The record parsed once and deep-frozen: readers share it and cannot change the stored copy. */
  parsed?: SessionRecord;
  readonly userId: string;
  readonly tokenId: string;
  /** The login's device type (replaced range, share). */
  readonly deviceType: string;
  /** When it was indexed among its user's sessions (the order the cap on concurrent sessions ends them in). */
  readonly seq: number;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  /** The client IP at login (the online list's IP filter reads it without parsing the record). */
  readonly ip: string | undefined;
  lastActiveAt: number;
  /** Retention deadline on the store clock, null = kept forever. */
  readonly deadline: number | null;
}

/** A kicked-out / replaced marker; it keeps the deadline of the session it replaced. */
export interface TombstoneEntry {
  readonly kind: TombstoneState;
  readonly deadline: number | null;
}

export type SessionEntry = ActiveEntry | TombstoneEntry;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

export function activeEntry(record: SessionRecord, lastActiveAt: number, deadline: number | null, seq: number): ActiveEntry {
  return {
    kind: 'active',
    json: JSON.stringify(record),
    userId: record.principal.userId,
    tokenId: record.tokenId,
    deviceType: sessionDeviceType(record),
    seq,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    ip: record.client.ip,
    lastActiveAt,
    deadline,
  };
}

/** Parsing once per write instead of once per read (a resolve is one read per authenticated request). */
export function recordOf(entry: ActiveEntry): SessionRecord {
  entry.parsed ??= deepFreeze(JSON.parse(entry.json) as SessionRecord);
  return entry.parsed;
}

/** Not past expiresAt (a record without expiresAt never expires). */
export function isCurrent(entry: ActiveEntry, now: number): boolean {
  return entry.expiresAt === null || entry.expiresAt > now;
}
