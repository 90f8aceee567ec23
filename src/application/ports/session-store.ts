import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import type { LoginType } from '../../domain/login-type';

/** A live session as listed from the per-user or per-type index. */
export interface ListedSession {
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly lastActiveAt: number;
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
 * left without a session are pruned when a listing meets them.
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
  /** Active sessions of a login type, oldest first, at most `limit`. */
  listAll(loginType: LoginType, now: number, limit: number): Promise<ListedSession[]>;
  /** The token hash of the session whose short token id is `tokenId`, if it exists. */
  findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null>;
}
