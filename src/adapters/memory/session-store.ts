/**
 * SessionStore in memory. Behaves like the Redis one (same contract suite): every method runs
 * synchronously inside, so it is atomic on the event loop; retention is measured on the store
 * clock, logical times (`now`: idle, expiresAt) come from the caller. Records are kept as
 * deep-frozen copies sharing their repeated parts (session-entries.ts); the indexes are ordered
 * chunked lists (online-index.ts, session-indexes.ts), so a page costs O(page) whatever the number
 * of sessions, and the sweep reads only what is due (SweepQueue), a bounded number per step.
 * It answers at once, but lets the event loop turn once its callers have run 10 ms without one
 * (LoopPacer: a loop of awaited calls over thousands of sessions does not stall the process).
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
import { BulkEnds } from './bulk-ends';
import { deadlineAfter, LoopPacer, SWEEP_STEP, type Sweepable } from './expiring-map';
import { type ActiveEntry, deviceOf, isActive, isCurrent, SessionEntry, storedRecord } from './session-entries';
import { TypeSessions } from './session-indexes';
import type { LoginType } from '../../domain/login-type';

/** Sessions the background sweep hands over per step (one turn of the event loop). */
export { SWEEP_STEP };

const listed = (e: ActiveEntry): ListedSession => ({ tokenHash: e.hash, record: e.record, lastActiveAt: e.lastActiveAt });

/** When the sweep is next to look at an entry: its expiry (it leaves the listings) or its retention's end. */
function dueOf(e: SessionEntry): number | null {
  const expiry = isActive(e) ? e.record.expiresAt : null;
  if (expiry === null) return e.deadline;
  return e.deadline === null ? expiry : Math.min(expiry, e.deadline);
}

export class InMemorySessionStore implements SessionStore, Sweepable {
  private readonly types = new Map<string, TypeSessions>();
  /** The order sessions were indexed in (the cap on concurrent sessions ends the oldest first). */
  private seq = 0;
  /** Tombstones made in bulk, their index entries taken out a step per loop turn. */
  private readonly bulk = new BulkEnds();

  constructor(
    private readonly clock: Clock,
    private readonly pacer = new LoopPacer(),
  ) {}

  async create(input: CreateSessionInput): Promise<CreateSessionResult> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const { loginType, tokenHash, record, admission, now } = input;
    const t = this.type(loginType);
    const ending = this.admit(t, input);
    if (ending === null) return { outcome: 'refused', ended: [] };

    // A re-used hash (not expected: hashes of random tokens) drops the old entry first.
    const previous = t.sessions.get(tokenHash);
    if (previous !== undefined) this.remove(t, previous);
    const entry = new SessionEntry(
      tokenHash,
      storedRecord(record),
      'active',
      ++this.seq,
      now,
      deadlineAfter(this.clock, input.retentionMs),
    );
    t.sessions.set(tokenHash, entry);
    t.index(entry as ActiveEntry);
    t.queue.schedule(entry, dueOf(entry));

    // Sessions already past expiresAt stay as they are, so they still read as "expired".
    const ended = ending.map((e) => ({ tokenHash: e.hash, record: e.record }));
    const state = admission.kind === 'cap' ? admission.state : 'replaced';
    this.bulk.end(t, ending, state);
    return { outcome: 'created', ended };
  }

  /** The user's other current sessions the admission ends, or null when it refuses the new one. */
  private admit(t: TypeSessions, input: CreateSessionInput): ActiveEntry[] | null {
    const { admission, tokenHash, now } = input;
    if (admission.kind === 'add') return [];
    const userId = input.record.principal.userId;
    t.pruneUser(userId, now);
    const range = admission.kind === 'cap' ? null : admission.deviceType;
    const others: ActiveEntry[] = [];
    t.walkUser(userId, 0, (e) => {
      if (e.hash !== tokenHash && isCurrent(e, now) && (range === null || deviceOf(e) === range)) others.push(e);
      return admission.kind !== 'exclusive' || others.length === 0;
    });
    if (admission.kind === 'exclusive') return others.length > 0 ? null : [];
    if (admission.kind === 'replace') return others;
    return others.sort((a, b) => a.seq - b.seq).slice(0, Math.max(0, others.length + 1 - admission.max));
  }

  async getSession(loginType: LoginType, tokenHash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.live(loginType, tokenHash);
    if (entry === undefined) return null;
    if (!isActive(entry)) return { state: entry.state as TombstoneState };
    const lastActiveAt = entry.lastActiveAt;
    // Touch only a session that is not already frozen (idle longer than the limit).
    if (idleLimitMs !== null && now > lastActiveAt && now - lastActiveAt <= idleLimitMs) entry.lastActiveAt = now;
    return { state: 'active', record: entry.record, lastActiveAt };
  }

  async update(loginType: LoginType, tokenHash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.live(loginType, tokenHash);
    if (!isActive(entry)) return false;
    // Same createdAt and seq: a renew keeps the session's place in the online index.
    this.replace(loginType, entry, storedRecord(record), deadlineAfter(this.clock, retentionMs));
    return true;
  }

  async patch(loginType: LoginType, tokenHash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.live(loginType, tokenHash);
    if (!isActive(entry)) return null;
    // One synchronous step: the record read is the one replaced.
    const next = storedRecord(applySessionPatch(entry.record, change(entry.record)));
    this.replace(loginType, entry, next, entry.deadline);
    return next;
  }

  private replace(loginType: string, entry: ActiveEntry, record: SessionRecord, deadline: number | null): void {
    const t = this.type(loginType);
    t.unindex(entry);
    entry.record = record;
    entry.deadline = deadline;
    t.index(entry);
    t.queue.schedule(entry, dueOf(entry));
  }

  async deleteSession(loginType: LoginType, tokenHash: string): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.live(loginType, tokenHash);
    if (entry === undefined) return false;
    this.remove(this.type(loginType), entry);
    return true;
  }

  async deleteMany(loginType: LoginType, tokenHashes: readonly string[]): Promise<number> {
    let removed = 0;
    for (const hash of tokenHashes) if (await this.deleteSession(loginType, hash)) removed++;
    return removed;
  }

  /** Effective at once for all; their index entries go BULK_STEP per loop turn (BulkEnds). */
  async mark(loginType: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const ending = new Set<ActiveEntry>();
    for (const hash of tokenHashes) {
      const entry = this.live(loginType, hash);
      if (isActive(entry)) ending.add(entry); // not missing, not already a tombstone
    }
    this.bulk.end(this.type(loginType), [...ending], state);
    return ending.size;
  }

  async listByUser(loginType: LoginType, userId: string, now: number): Promise<ListedSession[]> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const t = this.type(loginType);
    t.pruneUser(userId, now);
    return t.userEntries(userId).map(listed);
  }

  /**
   * O(page) plus what expired since the last listing (taken out of the user's indexes first, so the
   * total is the index's size); with a device-type filter, the user's sessions are read (counted).
   */
  async listUserPage(loginType: LoginType, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const t = this.type(loginType);
    t.pruneUser(userId, now);
    const offset = Math.max(0, Math.floor(query.offset));
    const limit = Math.max(0, Math.floor(query.limit));
    const sessions: ListedSession[] = [];
    if (query.deviceType === undefined) {
      t.walkUser(userId, offset, (e) => sessions.length < limit && sessions.push(listed(e)) > 0);
      return { sessions, total: t.userCount(userId) };
    }
    let total = 0;
    t.walkUser(userId, 0, (e) => {
      if (deviceOf(e) !== query.deviceType) return true;
      if (total++ >= offset && sessions.length < limit) sessions.push(listed(e));
      return true;
    });
    return { sessions, total };
  }

  /**
   * A page of the online index: the position `offset` found from the chunks' lengths, then the page's
   * entries (those met that ended or expired are pruned). A filter (IP, device type), or an index of
   * at most `exactCountUpTo` entries, reads from the head to count exactly, `scanLimit` entries at most.
   */
  async listPage(loginType: LoginType, now: number, q: OnlineQuery): Promise<OnlinePage> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const t = this.type(loginType);
    const index = t.online;
    const filtered = q.ip !== undefined || q.deviceType !== undefined;
    const counting = filtered || index.size <= q.exactCountUpTo;
    const maxRead = filtered ? q.scanLimit : Infinity;
    const sessions: ListedSession[] = [];
    let matches = 0;
    let read = 0;
    let complete = true;
    const evict: SessionEntry[] = [];
    const storeNow = this.clock.now();
    index.walk(counting ? 0 : q.offset, (e) => {
      if (read >= maxRead) {
        complete = false;
        return 'stop';
      }
      read++;
      const over = e.deadline !== null && e.deadline <= storeNow;
      if (over) evict.push(e);
      if (over || !isActive(e)) return 'drop'; // a tombstone of a bulk end leaves its other indexes by BulkEnds
      if (!isCurrent(e, now)) {
        t.unindexUser(e); // it keeps its record (token-expired) until evicted
        return 'drop';
      }
      if (q.ip !== undefined && e.record.client.ip !== q.ip) return 'next';
      if (q.deviceType !== undefined && deviceOf(e) !== q.deviceType) return 'next';
      if (!counting || (matches >= q.offset && sessions.length < q.limit)) sessions.push(listed(e));
      matches++;
      return !counting && sessions.length >= q.limit ? 'stop' : 'next';
    });
    for (const e of evict) this.remove(t, e);
    return counting ? { sessions, total: matches, totalExact: complete } : { sessions, total: index.size, totalExact: false };
  }

  async findByTokenId(loginType: LoginType, tokenId: string): Promise<string | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.type(loginType).byTokenId(tokenId);
    if (entry === undefined) return null;
    return isActive(this.live(loginType, entry.hash)) ? entry.hash : null;
  }

  /** Evicts sessions and tombstones whose retention has passed, and takes sessions past their expiry out of the listings. */
  sweep(): number {
    let removed = 0;
    for (const loginType of this.types.keys()) removed += this.sweepType(loginType, Infinity).removed;
    return removed;
  }

  /** One bounded step of the sweep (SWEEP_STEP entries per login type at most); true when more is due. */
  sweepStep(budget = SWEEP_STEP): boolean {
    let more = false;
    for (const loginType of this.types.keys()) more = this.sweepType(loginType, budget).more || more;
    return more;
  }

  private sweepType(loginType: string, budget: number): { removed: number; more: boolean } {
    const t = this.type(loginType);
    const now = this.clock.now();
    let removed = 0;
    const more = t.queue.drain(now, budget, (e) => {
      if (t.sessions.get(e.hash) !== e) return null; // gone meanwhile
      if (e.deadline !== null && e.deadline <= now) {
        this.remove(t, e);
        removed++;
        return null;
      }
      if (isActive(e) && !isCurrent(e, now)) t.unindex(e, true); // it keeps its record (token-expired) and token id
      return isActive(e) && isCurrent(e, now) ? dueOf(e) : e.deadline;
    });
    return { removed, more };
  }

  size(): number {
    let n = 0;
    for (const t of this.types.values()) n += t.size();
    return n;
  }

  private type(loginType: string): TypeSessions {
    let t = this.types.get(loginType);
    if (t === undefined) this.types.set(loginType, (t = new TypeSessions()));
    return t;
  }

  private retentionOver(e: SessionEntry): boolean {
    return e.deadline !== null && e.deadline <= this.clock.now();
  }

  /** The session entry if its retention has not passed; evicts it (and its indexes) if it has. */
  private live(loginType: string, tokenHash: string): SessionEntry | undefined {
    const t = this.type(loginType);
    const entry = t.sessions.get(tokenHash);
    if (entry === undefined || !this.retentionOver(entry)) return entry;
    this.remove(t, entry);
    return undefined;
  }

  private remove(t: TypeSessions, entry: SessionEntry): void {
    if (t.sessions.get(entry.hash) === entry) t.sessions.delete(entry.hash);
    if (entry.record !== null) t.unindex(entry as ActiveEntry); // active, or a bulk end's tombstone still indexed
    entry.record = null;
    t.queue.remove(entry);
  }
}
