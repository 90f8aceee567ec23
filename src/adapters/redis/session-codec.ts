/**
 * Reading and writing session values (docs/sessions.md, "Session keys in Redis"). Anything corrupt or
 * of the wrong shape reads as absent. Two layouts are read:
 *
 * - one key per session (written since issue 30): `<lastActive, 13 digits>|<token hash>|<record>`, the
 *   record packed (session-pack.ts) or a JSON object; a tombstone is one letter (TOMBSTONE_CODES);
 * - the previous release's (read until its sessions are gone): the record's JSON in `s`, the last-active
 *   time in `a`, a tombstone as its state's name ('kicked-out', ...).
 */
import type { SessionRecord, TombstoneState } from '../../domain/session';
import { encodeRecord, unpackRecord } from './session-pack';

/** The one-letter tombstone of each state (the layout of one key per session). */
export const TOMBSTONE_CODES: Readonly<Record<TombstoneState, string>> = { 'kicked-out': 'k', replaced: 'r', 'logged-out': 'l' };

const TOMBSTONES: ReadonlyMap<string, TombstoneState> = new Map<string, TombstoneState>([
  ['k', 'kicked-out'],
  ['r', 'replaced'],
  ['l', 'logged-out'],
  ['kicked-out', 'kicked-out'],
  ['replaced', 'replaced'],
  ['logged-out', 'logged-out'],
]);

/** The longest tombstone ('kicked-out', 'logged-out'): a longer value is none (no hashing of a whole record). */
const MAX_TOMBSTONE_LENGTH = 10;

/** Digits of the last-active time at the head of a value (ms since epoch, zero-padded: good until the year 2286). */
export const LAST_ACTIVE_DIGITS = 13;
const BAR = 124; // '|'

/** What a session record key holds, decoded: an active record or a tombstone. */
export type StoredValue = { readonly state: 'active'; readonly record: SessionRecord } | { readonly state: TombstoneState };

/** `ms` as the head of a value: 13 digits, zero-padded. */
export function lastActiveField(ms: number): string {
  return String(Math.max(0, Math.floor(ms))).padStart(LAST_ACTIVE_DIGITS, '0');
}

/** What follows the last-active time in a value: `|<token hash>|<record>`. */
export function sessionBody(hash: string, record: SessionRecord): string {
  return `|${hash}|${encodeRecord(hash, record)}`;
}

/** A whole value of the layout of one key per session. */
export function encodeSession(lastActive: number, hash: string, record: SessionRecord): string {
  return lastActiveField(lastActive) + sessionBody(hash, record);
}

/** Whether `raw` is an active value of the layout of one key per session (digits, then '|'). */
export function isOneKeyValue(raw: string): boolean {
  return raw.charCodeAt(LAST_ACTIVE_DIGITS) === BAR && raw.charCodeAt(0) >= 48 && raw.charCodeAt(0) <= 57;
}

/** The token hash inside a value of one key per session, or null. */
export function storedHash(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || !isOneKeyValue(raw)) return null;
  const bar = raw.indexOf('|', LAST_ACTIVE_DIGITS + 1);
  return bar < 0 ? null : raw.slice(LAST_ACTIVE_DIGITS + 1, bar);
}

/** The record of a value of one key per session whose hash ends at `bar`. */
function oneKeyRecord(raw: string, bar = raw.indexOf('|', LAST_ACTIVE_DIGITS + 1)): SessionRecord | null {
  if (bar < 0) return null;
  const body = raw.slice(bar + 1);
  if (body.charCodeAt(0) !== 91 /* [ */) return parseRecord(body);
  try {
    return unpackRecord(JSON.parse(body), raw.slice(LAST_ACTIVE_DIGITS + 1, bar));
  } catch {
    return null;
  }
}

/**
 * An active value of one key per session as the session of token hash `hash` (the request's read: one pass,
 * no copy of the hash): its record and last-active time, or null when corrupt or another hash's (same key id).
 */
export function decodeOneKey(raw: string, hash: string): { readonly record: SessionRecord; readonly lastActive: number } | null {
  const bar = LAST_ACTIVE_DIGITS + 1 + hash.length;
  if (raw.charCodeAt(bar) !== BAR || !raw.startsWith(hash, LAST_ACTIVE_DIGITS + 1)) return null;
  const record = oneKeyRecord(raw, bar);
  return record === null ? null : { record, lastActive: Number(raw.slice(0, LAST_ACTIVE_DIGITS)) };
}

/** A session record key's value as every reader takes it (either layout): absent, corrupt or of the wrong shape is null. */
export function decodeStored(raw: string | null | undefined): StoredValue | null {
  if (raw === null || raw === undefined) return null;
  const tombstone = raw.length <= MAX_TOMBSTONE_LENGTH ? TOMBSTONES.get(raw) : undefined;
  if (tombstone !== undefined) return { state: tombstone };
  const record = isOneKeyValue(raw) ? oneKeyRecord(raw) : parseRecord(raw);
  return record === null ? null : { state: 'active', record };
}

/** Parses a stored JSON record; anything corrupt or of the wrong shape reads as absent. */
export function parseRecord(json: string): SessionRecord | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const r = v as Partial<SessionRecord>;
    if (typeof r.tokenId !== 'string' || typeof r.createdAt !== 'number') return null;
    if (r.expiresAt !== null && typeof r.expiresAt !== 'number') return null;
    if (typeof r.principal !== 'object' || r.principal === null || typeof r.principal.userId !== 'string') return null;
    return v as SessionRecord;
  } catch {
    return null;
  }
}

/** lastActive as stored (the previous layout's `a` key), falling back to createdAt when missing or unreadable. */
export function parseLastActive(raw: string | null | undefined, record: SessionRecord): number {
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : record.createdAt;
}
