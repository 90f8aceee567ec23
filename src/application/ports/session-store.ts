import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import type { SessionPatch } from '../../domain/session-patch';
import type { LoginType } from '../../domain/login-type';

/** A live session as listed from the per-user or per-type index. */
export interface ListedSession {
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly lastActiveAt: number;
}

/** A page of the online index (GET /monitor/online): its order is login time, then token hash (memory: login order). */
export interface OnlineQuery {
  /**
   * Index entries skipped before the page. An entry whose session expired but that no listing has
   * met yet may hold a position (a direct jump to a deep page can then shift by a few sessions;
   * paging on from the first page cannot: each page prunes what it meets).
   */
  readonly offset: number;
  /** Sessions on the page, at most. */
  readonly limit: number;
  /** Only sessions whose client IP is exactly this: the store reads the index from its head, at most `scanLimit` entries. */
  readonly ip?: string;
  /** Only sessions of this device type (`DEF`: also those without one), read like the IP filter. */
  readonly deviceType?: string;
  /** How many index entries a filter (IP, device type) reads at most. */
  readonly scanLimit: number;
  /** Without a filter, `total` is counted exactly (every entry read) while the index holds at most this many entries. */
  readonly exactCountUpTo: number;
}

/** A page of one user's live sessions of a login type (their own list, an admin's view of one user). */
export interface UserSessionQuery {
  /** Live sessions skipped before the page (oldest first). */
  readonly offset: number;
  /** Sessions on the page, at most. */
  readonly limit: number;
  /** Only sessions of this device type (`DEF`: also those without one). */
  readonly deviceType?: string;
}

export interface UserSessionPage {
  readonly sessions: ListedSession[];
  /** How many live sessions of the user match (exact). */
  readonly total: number;
}

export interface OnlinePage {
  readonly sessions: ListedSession[];
  /**
   * How many sessions match: exact (`totalExact`) when every entry was read (an IP filter whose scan
   * reached the end of the index, or an index of at most `exactCountUpTo` entries); otherwise, without
   * a filter, the index's entry count once the page's dead entries are pruned (an upper bound: sessions
   * that expired since the last listing met them count until pruned), and with an IP filter the
   * matches within the entries scanned (a lower bound).
   */
  readonly total: number;
  readonly totalExact: boolean;
}

/**
 * What a new session does to its user's other sessions of the login type: decided in one atomic
 * step with the new session's indexing, so that concurrent logins of one account are ordered.
 * "Current" means not ended and not past expiresAt.
 */
export type Admission =
  /** Add it (concurrent logins without a cap, a refresh). */
  | { readonly kind: 'add' }
  /** is-concurrent=false, OLD_DEVICE: the user's other sessions of `deviceType` (null: of every device type) end "replaced". */
  | { readonly kind: 'replace'; readonly deviceType: string | null }
  /** is-concurrent=false, NEW_DEVICE: nothing is written while the user has a current session of `deviceType` (null: of any). */
  | { readonly kind: 'exclusive'; readonly deviceType: string | null }
  /**
   * max-login-count: once it is added, the user's oldest current sessions (in the order their logins
   * were indexed) beyond `max` end as `state`.
   */
  | { readonly kind: 'cap'; readonly max: number; readonly state: TombstoneState };

/** A session a create ended; `record` is null when it had not been written yet (a login still in flight). */
export interface EndedSession {
  readonly tokenHash: string;
  readonly record: SessionRecord | null;
}

export interface CreateSessionResult {
  /**
   * `created`: the session is live; `refused`: an exclusive admission found a current session and
   * nothing was written; `ended`: a concurrent login ended it before its record was written (its
   * token reads as that login left it, replaced or over the cap).
   */
  readonly outcome: 'created' | 'refused' | 'ended';
  /** The other sessions this create ended (replaced, or over the cap). */
  readonly ended: readonly EndedSession[];
}

export interface CreateSessionInput {
  readonly loginType: LoginType;
  /** SHA-256 (hex) of the token: the only form of the token the store ever sees. */
  readonly tokenHash: string;
  readonly record: SessionRecord;
  /** How long the store keeps the record (expiry plus grace), null = no expiry. */
  readonly retentionMs: number | null;
  /** What it does to the user's other sessions. */
  readonly admission: Admission;
  readonly now: number;
}

/**
 * Sessions keyed by token hash, with a per-user index and a per-type index (never KEYS).
 * "Not found" is a value. getSession is one atomic step (Redis: one script, one round trip). A
 * store whose indexes live apart from the sessions (Redis, where each may be on another cluster
 * slot) may run the other methods as ordered steps, each atomic, and must keep these at every
 * step: a session that can be read as active is in the user and type indexes (indexed before it
 * is written); a revocation (mark, delete, an end by a create) is effective before its index
 * entries go; of concurrent creates with a `replace` admission for one user and range exactly one
 * stays active; of concurrent `exclusive` creates for a user with no current session exactly one
 * is created; after concurrent `cap` creates at most `max` sessions of the user are current, the
 * newest. Index entries left without a session, and online-index entries of sessions past their
 * expiry, are pruned when a listing meets them.
 */
export interface SessionStore {
  /** Stores a new session and indexes it, as its admission says; returns what it did. */
  create(input: CreateSessionInput): Promise<CreateSessionResult>;
  /**
   * Reads one session. When `idleLimitMs` is a number the session's last-active time is
   * moved to `now`, but only if it has not already been idle longer than that (a frozen
   * session stays frozen). With `idleLimitMs` null this is a single read.
   */
  getSession(loginType: LoginType, tokenHash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null>;
  /** Replaces the record of an active session (renew, permission resync); false if not active. */
  update(loginType: LoginType, tokenHash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean>;
  /**
   * Changes some fields of an active session's CURRENT record in one atomic step: `change` gets the record as stored
   * at that step and returns the fields to change (SessionPatch); the rest of the record (principal, expiry: what
   * another writer may have changed meanwhile), its retention, last-active time and index entries stay. `change` must
   * be pure: a store may call it more than once (Redis: compare-and-set, again when the record changed in between).
   * Returns the new record, or null when the session is not active.
   */
  patch(loginType: LoginType, tokenHash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null>;
  /** Removes a session and its index entries; true if something was removed. */
  deleteSession(loginType: LoginType, tokenHash: string): Promise<boolean>;
  /**
   * Removes many sessions and their index entries, as deleteSession does each, in bulk (logout-all: a
   * few hundred at a time, not one call per session); returns how many were removed.
   */
  deleteMany(loginType: LoginType, tokenHashes: readonly string[]): Promise<number>;
  /** Turns active sessions into tombstones that keep their TTL; returns how many changed. */
  mark(loginType: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number>;
  /** The user's active (not expired, not tombstoned) sessions; prunes dead index entries. */
  listByUser(loginType: LoginType, userId: string, now: number): Promise<ListedSession[]>;
  /** A page of the user's active sessions, oldest first, with their exact count; bounded by the page, not by the user's session count. */
  listUserPage(loginType: LoginType, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage>;
  /**
   * A page of the login type's current sessions, oldest first. Bounded work: the page's entries
   * (plus the dead ones met, pruned), the skipped offset's index entries (never their records),
   * and for an IP filter at most `scanLimit` records.
   */
  listPage(loginType: LoginType, now: number, query: OnlineQuery): Promise<OnlinePage>;
  /** The token hash of the session whose short token id is `tokenId`, if it exists. */
  findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null>;
}
