/**
 * How the in-memory session store keeps a session or a tombstone, compactly (docs/performance.md,
 * "memory store"): one object per session with fixed fields (no closure, no Map of its own), its
 * record a deep-frozen copy that readers share (they cannot change it), whose parts that repeat
 * across sessions are shared too: the principal (one per user and snapshot: 10,000 sessions of one
 * account hold one), the roles and permissions arrays (one per distinct list), and the client's
 * User-Agent, OS, browser and device type strings. The pools are bounded: past POOL_LIMIT distinct values a pool starts again
 * (what is already shared stays shared), so a client sending endless new User-Agents costs what it
 * would without the pool.
 */
import { sessionDeviceType } from '../../domain/device-type';
import type { ClientInfo, SessionRecord, TombstoneState } from '../../domain/session';

/** Distinct values a pool holds before it is emptied. */
const POOL_LIMIT = 10_000;

/** Values shared by content (JSON for objects); bounded. */
class Pool<T> {
  private readonly values = new Map<string, T>();
  constructor(private readonly make: (key: string) => T) {}

  get(key: string): T {
    let value = this.values.get(key);
    if (value === undefined) {
      if (this.values.size >= POOL_LIMIT) this.values.clear();
      value = this.make(key);
      this.values.set(key, value);
    }
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

const strings = new Pool<string>((s) => s);
const lists = new Pool<readonly string[]>((json) => Object.freeze(JSON.parse(json) as string[]));

type Principal = SessionRecord['principal'];

/** The last principal stored per user id (bounded as the pools): sessions of one user and snapshot share it. */
const principals = new Map<string, Principal>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function samePrincipal(a: Principal, b: Principal): boolean {
  const keys = Object.keys(b).filter((k) => (b as unknown as Record<string, unknown>)[k] !== undefined);
  return (
    keys.length === Object.keys(a).length &&
    a.userId === b.userId &&
    a.username === b.username &&
    a.nickname === b.nickname &&
    a.avatar === b.avatar &&
    sameList(a.roles, b.roles) &&
    sameList(a.permissions, b.permissions)
  );
}

/** The principal as stored: the one already stored for the user when it is the same, else a frozen copy (lists shared). */
function principalOf(principal: Principal): Principal {
  const known = principals.get(principal.userId);
  if (known !== undefined && samePrincipal(known, principal)) return known;
  const copy = JSON.parse(JSON.stringify(principal)) as Record<string, unknown>;
  copy.roles = lists.get(JSON.stringify(principal.roles));
  copy.permissions = lists.get(JSON.stringify(principal.permissions));
  const stored = deepFreeze(copy as unknown as Principal);
  if (principals.size >= POOL_LIMIT) principals.clear();
  principals.set(principal.userId, stored);
  return stored;
}

/** A copy of the client with its repeated strings shared (JSON's rules: undefined fields left out). */
function clientCopy(client: ClientInfo): ClientInfo {
  const copy = JSON.parse(JSON.stringify(client)) as Record<string, string>;
  for (const field of ['userAgent', 'os', 'browser', 'deviceType', 'device']) {
    const value = copy[field];
    if (value !== undefined) copy[field] = strings.get(value);
  }
  return copy as ClientInfo;
}

/** The fields every record has, in one object literal (in-object properties); others (optional) are added after. */
const FIXED = new Set(['v', 'loginType', 'tokenId', 'createdAt', 'expiresAt', 'principal', 'client', 'attrs']);

/** The stored form of a record: a deep-frozen copy (as a JSON round trip would give it) sharing its repeated parts. */
export function storedRecord(record: SessionRecord): SessionRecord {
  const plain = JSON.parse(JSON.stringify({ ...record, principal: undefined, client: undefined })) as Record<string, unknown>;
  const out: Record<string, unknown> = {
    v: plain.v,
    loginType: strings.get(record.loginType),
    tokenId: plain.tokenId,
    createdAt: plain.createdAt,
    expiresAt: plain.expiresAt,
    principal: principalOf(record.principal),
    client: clientCopy(record.client),
    attrs: plain.attrs,
  };
  for (const [k, v] of Object.entries(plain)) if (!FIXED.has(k)) out[k] = v;
  return deepFreeze(out as unknown as SessionRecord);
}

/** A session (active) or what is left of it (a tombstone), in one object. */
export class SessionEntry {
  constructor(
    /** SHA-256 (hex) of the token: the key of the store's map, shared with the indexes. */
    readonly hash: string,
    /** The record (frozen), null once the session is a tombstone. */
    public record: SessionRecord | null,
    /** `active`, or the tombstone's state. */
    public state: 'active' | TombstoneState,
    /** When it was indexed (the order the cap on concurrent sessions ends sessions in; ties of the online list). */
    readonly seq: number,
    public lastActiveAt: number,
    /** Retention deadline on the store clock, null = kept forever. */
    public deadline: number | null,
    /** The sweep slot it is queued in (SweepQueue), -1 when in none. */
    public slot = -1,
  ) {}
}

/** An active session: its record is there. */
export type ActiveEntry = SessionEntry & { record: SessionRecord; state: 'active' };

export function isActive(entry: SessionEntry | undefined): entry is ActiveEntry {
  return entry !== undefined && entry.state === 'active' && entry.record !== null;
}

/** Not past expiresAt (a record without expiresAt never expires). */
export function isCurrent(entry: ActiveEntry, now: number): boolean {
  return entry.record.expiresAt === null || entry.record.expiresAt > now;
}

export function deviceOf(entry: ActiveEntry): string {
  return sessionDeviceType(entry.record);
}

/** The online list's order: login time, then the order sessions were indexed in. */
export function byLoginOrder(a: SessionEntry, b: SessionEntry): number {
  return (a.record?.createdAt ?? 0) - (b.record?.createdAt ?? 0) || a.seq - b.seq;
}

/** A user's list's order: login time, then token hash (as every store lists a user's sessions). */
export function byAgeThenHash(a: SessionEntry, b: SessionEntry): number {
  const d = (a.record?.createdAt ?? 0) - (b.record?.createdAt ?? 0);
  if (d !== 0) return d;
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
}
