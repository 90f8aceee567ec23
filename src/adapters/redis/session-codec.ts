/** Reading session replies of the Redis scripts: anything corrupt or of the wrong shape reads as absent. */
import type { SessionRecord, TombstoneState } from '../../domain/session';

const TOMBSTONES: readonly string[] = ['kicked-out', 'replaced', 'logged-out'] satisfies TombstoneState[];

/** What a session record key holds, decoded: an active record or a tombstone. */
export type StoredValue = { readonly state: 'active'; readonly record: SessionRecord } | { readonly state: TombstoneState };

/** A session record key's value as every reader takes it: absent, corrupt or of the wrong shape is null. */
export function decodeStored(raw: string | null | undefined): StoredValue | null {
  if (raw === null || raw === undefined) return null;
  if (TOMBSTONES.includes(raw)) return { state: raw as TombstoneState };
  const record = parseRecord(raw);
  return record === null ? null : { state: 'active', record };
}

/** Parses a stored record; anything corrupt or of the wrong shape reads as absent. */
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

/** lastActive as stored, falling back to createdAt when missing or unreadable. */
export function parseLastActive(raw: string | null | undefined, record: SessionRecord): number {
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : record.createdAt;
}
