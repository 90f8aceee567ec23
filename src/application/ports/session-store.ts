import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
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
  /** How many index entries an IP filter reads at most. */
  readonly scanLimit: number;
  /** Without a filter, `total` is counted exactly (every entry read) while the index holds at most this many entries. */
  readonly exactCountUpTo: number;
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

export interface CreateSessionInput {
  readonly loginType: LoginType;
  /** SHA-256 (hex) of the token: the only form of the token the store ever sees. */
  readonly tokenHash: string;
  readonly record: SessionRecord;
  /** How long the store keeps the record (expiry plus grace), null = no expiry. */
  readonly retentionMs: number | null;
  /** is-concurrent=false: mark every other active session of this user and type as "replaced". */
  readonly replaceOthers: boolean;
  readonly now: number;
}

/**
 * Sessions keyed by token hash, with a per-user index and a per-type index (never KEYS).
 * "Not found" is a value. getSession is one atomic step (Redis: one script, one round trip). A
 * store whose indexes live apart from the sessions (Redis, where each may be on another cluster
 * slot) may run the other methods as ordered steps, each atomic, and must keep these at every
 * step: a session that can be read as active is in the user and type indexes (indexed before it
 * is written); a revocation (mark, delete) is effective before its index entries go; of
 * concurrent creates with replaceOthers for one user exactly one stays active. Index entries
 * left without a session, and online-index entries of sessions past their expiry, are pruned
 * when a listing meets them.
 */
export interface SessionStore {
  /** Stores a new session and indexes it; returns how many older sessions were replaced. */
  create(input: CreateSessionInput): Promise<{ replaced: number }>;
  /**
   * Reads one session. When `idleLimitMs` is a number the session's last-active time is
   * moved to `now`, but only if it has not already been idle longer than that (a frozen
   * session stays frozen). With `idleLimitMs` null this is a single read.
   */
  getSession(loginType: LoginType, tokenHash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null>;
  /** Replaces the record of an active session (renew, permission resync); false if not active. */
  update(loginType: LoginType, tokenHash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean>;
  /** Removes a session and its index entries; true if something was removed. */
  deleteSession(loginType: LoginType, tokenHash: string): Promise<boolean>;
  /** Turns active sessions into tombstones that keep their TTL; returns how many changed. */
  mark(loginType: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number>;
  /** The user's active (not expired, not tombstoned) sessions; prunes dead index entries. */
  listByUser(loginType: LoginType, userId: string, now: number): Promise<ListedSession[]>;
  /**
   * A page of the login type's current sessions, oldest first. Bounded work: the page's entries
   * (plus the dead ones met, pruned), the skipped offset's index entries (never their records),
   * and for an IP filter at most `scanLimit` records.
   */
  listPage(loginType: LoginType, now: number, query: OnlineQuery): Promise<OnlinePage>;
  /** The token hash of the session whose short token id is `tokenId`, if it exists. */
  findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null>;
}
