/**
 * SessionStore in memory. Behaves like the Redis one (same contract suite): every method runs
 * synchronously inside, so it is atomic on the event loop; retention is measured on the store
 * clock, logical times (`now`: idle, expiresAt) come from the caller; records are kept as JSON.
 * It answers at once: the edge, not the store, makes the requests of one loop turn advance
 * together (requestContext, docs/performance.md).
 */
import type { Clock } from '../../application/ports/clock';
import type {
  CreateSessionInput,
  CreateSessionResult,
  ListedSession,
  OnlinePage,
  UserSessionPage,
  UserSessionQuery,
  OnlineQuery,
  SessionStore,
} from '../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { applySessionPatch, type SessionPatch } from '../../domain/session-patch';
import { bySessionAge, pageOfSessions } from '../store-common';
import { deadlineAfter, type Sweepable } from './expiring-map';
import { OnlineIndex } from './online-index';
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
  /** loginType -> its active sessions in login order (the online list; expired ones pruned as met and by sweep). */
  private readonly byType = new Map<string, OnlineIndex>();
  /** loginType + tokenId -> tokenHash. */
  private readonly byTokenId = new Map<string, string>();
  /** The order sessions were indexed in (the cap on concurrent sessions ends the oldest first). */
  private seq = 0;

  constructor(private readonly clock: Clock) {}

  async create(input: CreateSessionInput): Promise<CreateSessionResult> {
    const { loginType, tokenHash, record, admission, now } = input;
    const others = this.currentOthers(loginType, record.principal.userId, tokenHash, now);
    const inRange = (e: ActiveEntry, deviceType: string | null): boolean => deviceType === null || e.deviceType === deviceType;
    if (admission.kind === 'exclusive' && others.some(([, e]) => inRange(e, admission.deviceType)))
      return { outcome: 'refused', ended: [] };

    // A re-used hash (not expected: hashes of random tokens) drops the old entry's indexes first.
    const previous = this.sessions.get(key2(loginType, tokenHash));
    if (previous?.kind === 'active') this.unindex(loginType, tokenHash, previous);
    const entry = activeEntry(record, now, deadlineAfter(this.clock, input.retentionMs), ++this.seq);
    this.sessions.set(key2(loginType, tokenHash), entry);
    this.index(loginType, tokenHash, entry);

    // Sessions already past expiresAt stay as they are, so they still read as "expired".
    let ending: Array<readonly [string, ActiveEntry]> = [];
    if (admission.kind === 'replace') ending = others.filter(([, e]) => inRange(e, admission.deviceType));
    if (admission.kind === 'cap') ending = others.slice(0, Math.max(0, others.length + 1 - admission.max));
    const state = admission.kind === 'cap' ? admission.state : 'replaced';
    for (const [hash, e] of ending) this.tombstone(loginType, hash, e, state);
    return { outcome: 'created', ended: ending.map(([hash, e]) => ({ tokenHash: hash, record: recordOf(e) })) };
  }

  /** The user's other sessions that are current at `now`, in the order they were indexed. */
  private currentOthers(loginType: string, userId: string, tokenHash: string, now: number): Array<readonly [string, ActiveEntry]> {
    const out: Array<readonly [string, ActiveEntry]> = [];
    for (const other of [...(this.byUser.get(key2(loginType, userId)) ?? [])]) {
      const entry = other === tokenHash ? undefined : this.liveSession(loginType, other);
      if (entry?.kind === 'active' && isCurrent(entry, now)) out.push([other, entry]);
    }
    return out.sort(([, a], [, b]) => a.seq - b.seq);
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
    // Its place in the online index stays (same createdAt): a renew does not move a session to the end.
    this.unindex(loginType, tokenHash, entry, false);
    const next = activeEntry(record, entry.lastActiveAt, deadlineAfter(this.clock, retentionMs), entry.seq);
    this.sessions.set(key2(loginType, tokenHash), next);
    this.index(loginType, tokenHash, next);
    return true;
  }

  async patch(loginType: LoginType, tokenHash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry?.kind !== 'active') return null;
    // One synchronous step: the record read is the one replaced. User, token id and createdAt stay: so do the indexes.
    const current = recordOf(entry);
    const next = activeEntry(applySessionPatch(current, change(current)), entry.lastActiveAt, entry.deadline, entry.seq);
    this.sessions.set(key2(loginType, tokenHash), next);
    return recordOf(next);
  }

  async deleteSession(loginType: LoginType, tokenHash: string): Promise<boolean> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry === undefined) return false;
    this.removeSession(loginType, tokenHash, entry);
    return true;
  }

  async deleteMany(loginType: LoginType, tokenHashes: readonly string[]): Promise<number> {
    let removed = 0;
    for (const hash of tokenHashes) if (await this.deleteSession(loginType, hash)) removed++;
    return removed;
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
  async listUserPage(loginType: LoginType, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage> {
    return pageOfSessions(await this.listByUser(loginType, userId, now), query);
  }

  /**
   * Walks the online index in order: O(offset + page) map lookups (the skipped entries are checked,
   * so positions count live sessions only), pruning what has ended or expired. An IP filter, or an
   * index of at most `exactCountUpTo` entries, reads on to count exactly (an IP filter stops after
   * `scanLimit` entries).
   */
  async listPage(loginType: LoginType, now: number, q: OnlineQuery): Promise<OnlinePage> {
    const index = this.byType.get(loginType);
    if (index === undefined) return { sessions: [], total: 0, totalExact: true };
    const filtered = q.ip !== undefined || q.deviceType !== undefined;
    const counting = filtered || index.size <= q.exactCountUpTo;
    const maxRead = filtered ? q.scanLimit : Infinity;
    const sessions: ListedSession[] = [];
    let matches = 0;
    let read = 0;
    let complete = true;
    for (const hash of index.inOrder()) {
      if (read >= maxRead) {
        complete = false;
        break;
      }
      read++;
      const entry = this.current(loginType, index, hash, now);
      if (entry === null || (q.ip !== undefined && entry.ip !== q.ip)) continue;
      if (q.deviceType !== undefined && entry.deviceType !== q.deviceType) continue;
      if (matches >= q.offset && sessions.length < q.limit)
        sessions.push({ tokenHash: hash, record: recordOf(entry), lastActiveAt: entry.lastActiveAt });
      matches++;
      if (!counting && sessions.length >= q.limit) break;
    }
    if (index.size === 0) this.byType.delete(loginType);
    return counting ? { sessions, total: matches, totalExact: complete } : { sessions, total: index.size, totalExact: false };
  }

  async findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null> {
    const hash = this.byTokenId.get(key2(loginType, tokenId));
    if (hash === undefined) return null;
    return this.liveSession(loginType, hash)?.kind === 'active' ? hash : null;
  }

  /**
   * Evicts sessions and tombstones whose retention has passed, with their index entries, and drops
   * sessions past their expiry from the online index (their records stay, to answer token-expired).
   */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [k, entry] of this.sessions) {
      const sep = k.indexOf(SEP);
      if (entry.kind === 'active' && !isCurrent(entry, now)) this.byType.get(k.slice(0, sep))?.delete(k.slice(sep + 1));
      if (entry.deadline === null || entry.deadline > now) continue;
      this.removeSession(k.slice(0, sep), k.slice(sep + 1), entry);
      removed++;
    }
    return removed;
  }

  size(): number {
    let n = this.sessions.size + this.byTokenId.size;
    for (const set of this.byUser.values()) n += set.size;
    for (const index of this.byType.values()) n += index.size;
    return n;
  }

  /** The current session an online-index entry names, or null after pruning the entry (ended, or past its expiry). */
  private current(loginType: string, index: OnlineIndex, hash: string, now: number): ActiveEntry | null {
    const entry = this.liveSession(loginType, hash);
    if (entry?.kind === 'active' && isCurrent(entry, now)) return entry;
    index.delete(hash);
    return null;
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
    let online = this.byType.get(loginType);
    if (online === undefined) this.byType.set(loginType, (online = new OnlineIndex()));
    online.add(tokenHash, entry.createdAt);
    this.byTokenId.set(key2(loginType, entry.tokenId), tokenHash);
  }

  /** `online` false: the entry stays in the online index (an update keeps its place). */
  private unindex(loginType: string, tokenHash: string, entry: ActiveEntry, online = true): void {
    removeFrom(this.byUser, key2(loginType, entry.userId), tokenHash);
    if (online) this.byType.get(loginType)?.delete(tokenHash);
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
