/**
 * SessionStore in memory. Behaves like the Redis one (same contract suite): every method runs
 * synchronously inside, so it is atomic on the event loop; retention is measured on the store
 * clock, logical times (`now`: idle, expiresAt) come from the caller; records are kept as JSON.
 * It answers at once: the edge, not the store, makes the requests of one loop turn advance
 * together (requestContext, docs/performance.md).
 */
import type { Clock } from '../../application/ports/clock';
import type { CreateSessionInput, ListedSession, SessionStore } from '../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { bySessionAge } from '../store-common';
import { deadlineAfter, type Sweepable } from './expiring-map';
import { type ActiveEntry, activeEntry, isCurrent, recordOf, type SessionEntry } from './session-entries';
import type { LoginType } from '../../domain/login-type';

/** Joins the parts of a composite map key; NUL cannot appear in login types, ids or hashes. */
const SEP = '\u0000';
const key2 = (a: string, b: string): string => `${a}${SEP}${b}`;

export class InMemorySessionStore implements SessionStore, Sweepable {
  /** loginType + tokenHash -> session or tombstone. */
  private readonly sessions = new Map<string, SessionEntry>();
  /** loginType + userId -> hashes of that user's active sessions. */
  private readonly byUser = new Map<string, Set<string>>();
  /** loginType -> hashes of its active sessions (for listAll). */
  private readonly byType = new Map<string, Set<string>>();
  /** loginType + tokenId -> tokenHash. */
  private readonly byTokenId = new Map<string, string>();

  constructor(private readonly clock: Clock) {}

  async create(input: CreateSessionInput): Promise<{ replaced: number }> {
    const { loginType, tokenHash, record } = input;
    let replaced = 0;

    if (input.replaceOthers) {
      for (const other of [...(this.byUser.get(key2(loginType, record.principal.userId)) ?? [])]) {
        if (other === tokenHash) continue;
        const entry = this.liveSession(loginType, other);
        // Sessions already past expiresAt stay as they are, so they still read as "expired".
        if (entry?.kind === 'active' && isCurrent(entry, input.now)) {
          this.tombstone(loginType, other, entry, 'replaced');
          replaced++;
        }
      }
    }

    // A re-used hash (not expected: hashes of random tokens) drops the old entry's indexes first.
    const previous = this.sessions.get(key2(loginType, tokenHash));
    if (previous?.kind === 'active') this.unindex(loginType, tokenHash, previous);

    const entry = activeEntry(record, input.now, deadlineAfter(this.clock, input.retentionMs));
    this.sessions.set(key2(loginType, tokenHash), entry);
    this.index(loginType, tokenHash, entry);
    return { replaced };
  }

  async getSession(loginType: LoginType, tokenHash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry === undefined) return null;
    if (entry.kind !== 'active') return { state: entry.kind };
    const lastActiveAt = entry.lastActiveAt;
    // Touch only a session that is not already frozen (idle longer than the limit).
    if (idleLimitMs !== null && now > lastActiveAt && now - lastActiveAt <= idleLimitMs) entry.lastActiveAt = now;
    return { state: 'active', record: recordOf(entry), lastActiveAt };
  }

  async update(loginType: LoginType, tokenHash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry?.kind !== 'active') return false;
    this.unindex(loginType, tokenHash, entry);
    const next = activeEntry(record, entry.lastActiveAt, deadlineAfter(this.clock, retentionMs));
    this.sessions.set(key2(loginType, tokenHash), next);
    this.index(loginType, tokenHash, next);
    return true;
  }

  async deleteSession(loginType: LoginType, tokenHash: string): Promise<boolean> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry === undefined) return false;
    this.removeSession(loginType, tokenHash, entry);
    return true;
  }

  async mark(loginType: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    let changed = 0;
    for (const hash of tokenHashes) {
      const entry = this.liveSession(loginType, hash);
      if (entry?.kind !== 'active') continue; // missing or already a tombstone
      this.tombstone(loginType, hash, entry, state);
      changed++;
    }
    return changed;
  }

  async listByUser(loginType: LoginType, userId: string, now: number): Promise<ListedSession[]> {
    return this.listIndexed(this.byUser, key2(loginType, userId), loginType, now);
  }

  async listAll(loginType: LoginType, now: number, limit: number): Promise<ListedSession[]> {
    if (limit <= 0) return [];
    return this.listIndexed(this.byType, loginType, loginType, now).slice(0, limit);
  }

  async findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null> {
    const hash = this.byTokenId.get(key2(loginType, tokenId));
    if (hash === undefined) return null;
    return this.liveSession(loginType, hash)?.kind === 'active' ? hash : null;
  }

  /** Evicts sessions and tombstones whose retention has passed, with their index entries. */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [k, entry] of this.sessions) {
      if (entry.deadline === null || entry.deadline > now) continue;
      const sep = k.indexOf(SEP);
      this.removeSession(k.slice(0, sep), k.slice(sep + 1), entry);
      removed++;
    }
    return removed;
  }

  size(): number {
    let n = this.sessions.size + this.byTokenId.size;
    for (const set of this.byUser.values()) n += set.size;
    for (const set of this.byType.values()) n += set.size;
    return n;
  }

  /** The current sessions an index lists, oldest first; prunes its dead entries. */
  private listIndexed(index: Map<string, Set<string>>, indexKey: string, loginType: string, now: number): ListedSession[] {
    const hashes = index.get(indexKey);
    if (hashes === undefined) return [];
    const out: ListedSession[] = [];
    for (const hash of [...hashes]) {
      const entry = this.liveSession(loginType, hash);
      if (entry?.kind !== 'active') {
        hashes.delete(hash); // dead index entry
        continue;
      }
      if (isCurrent(entry, now)) out.push({ tokenHash: hash, record: recordOf(entry), lastActiveAt: entry.lastActiveAt });
    }
    if (hashes.size === 0) index.delete(indexKey);
    return out.sort(bySessionAge);
  }

  /** The session entry if its retention has not passed; evicts it (and its indexes) if it has. */
  private liveSession(loginType: string, tokenHash: string): SessionEntry | undefined {
    const entry = this.sessions.get(key2(loginType, tokenHash));
    if (entry === undefined) return undefined;
    if (entry.deadline !== null && entry.deadline <= this.clock.now()) {
      this.removeSession(loginType, tokenHash, entry);
      return undefined;
    }
    return entry;
  }

  private removeSession(loginType: string, tokenHash: string, entry: SessionEntry): void {
    this.sessions.delete(key2(loginType, tokenHash));
    if (entry.kind === 'active') this.unindex(loginType, tokenHash, entry);
  }

  /** Turns an active session into a tombstone that keeps the session's deadline. */
  private tombstone(loginType: string, tokenHash: string, entry: ActiveEntry, state: TombstoneState): void {
    this.unindex(loginType, tokenHash, entry);
    this.sessions.set(key2(loginType, tokenHash), { kind: state, deadline: entry.deadline });
  }

  private index(loginType: string, tokenHash: string, entry: ActiveEntry): void {
    addTo(this.byUser, key2(loginType, entry.userId), tokenHash);
    addTo(this.byType, loginType, tokenHash);
    this.byTokenId.set(key2(loginType, entry.tokenId), tokenHash);
  }

  private unindex(loginType: string, tokenHash: string, entry: ActiveEntry): void {
    removeFrom(this.byUser, key2(loginType, entry.userId), tokenHash);
    removeFrom(this.byType, loginType, tokenHash);
    const tokenKey = key2(loginType, entry.tokenId);
    if (this.byTokenId.get(tokenKey) === tokenHash) this.byTokenId.delete(tokenKey);
  }
}

function addTo(map: Map<string, Set<string>>, key: string, member: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([member]));
  else set.add(member);
}

function removeFrom(map: Map<string, Set<string>>, key: string, member: string): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(member);
  if (set.size === 0) map.delete(key);
}
