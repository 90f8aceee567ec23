/**
 * One login type's sessions in the memory session store, and their indexes: by token hash (the
 * sessions and tombstones), by short token id, the online list (OrderedIndex in login order) and
 * per user. A user with one session is indexed by that session itself; with more, by two ordered
 * indexes, one in login order (pages) and one by expiry (what has expired is at its head: removed
 * before a listing counts, so a page of the user's sessions and its exact total cost O(page) plus
 * what expired since, never O(sessions of the user)). Only active sessions are indexed (a
 * tombstone leaves every index); an active session past its expiry leaves the online and user
 * indexes when a listing meets it or the sweep reaches it, and keeps its record (token-expired)
 * until its retention ends.
 */
import { SweepQueue } from './expiring-map';
import { OrderedIndex } from './online-index';
import { type ActiveEntry, byAgeThenHash, byLoginOrder, isActive, isCurrent, type SessionEntry } from './session-entries';

/** By expiry (none: last), then token hash. */
function byExpiryThenHash(a: SessionEntry, b: SessionEntry): number {
  const x = a.record?.expiresAt ?? Infinity;
  const y = b.record?.expiresAt ?? Infinity;
  if (x !== y) return x < y ? -1 : 1;
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0;
}

const allIn = <T>(items: readonly T[], set: ReadonlySet<T>): boolean => items.every((x) => set.has(x));

/** A user's sessions when there is more than one. */
class UserSessions {
  readonly byAge = new OrderedIndex<SessionEntry>(byAgeThenHash);
  readonly byExpiry = new OrderedIndex<SessionEntry>(byExpiryThenHash);

  add(entry: SessionEntry): void {
    this.byAge.add(entry);
    this.byExpiry.add(entry);
  }

  deleteMany(entries: readonly SessionEntry[]): void {
    this.byExpiry.deleteMany(entries);
    this.byAge.deleteMany(entries);
  }

  delete(entry: SessionEntry): boolean {
    this.byExpiry.delete(entry);
    return this.byAge.delete(entry);
  }
}

export class TypeSessions {
  /** Token hash -> the session or its tombstone. */
  readonly sessions = new Map<string, SessionEntry>();
  /** The active sessions in login order (the online list). */
  readonly online = new OrderedIndex<SessionEntry>(byLoginOrder);
  /** User id -> their only session, or their sessions. */
  private readonly users = new Map<string, SessionEntry | UserSessions>();
  /** Every session and tombstone by the time it is next due (its expiry, the end of its retention). */
  readonly queue = new SweepQueue<SessionEntry>();
  /** Short token id -> the session. */
  private readonly tokenIds = new Map<string, SessionEntry>();

  /** Indexes an active session (its record in place). */
  index(entry: ActiveEntry): void {
    const userId = entry.record.principal.userId;
    const user = this.users.get(userId);
    if (user === undefined) this.users.set(userId, entry);
    else if (user instanceof UserSessions) user.add(entry);
    else if (user !== entry) {
      const many = new UserSessions();
      many.add(user);
      many.add(entry);
      this.users.set(userId, many);
    }
    this.online.add(entry);
    this.tokenIds.set(entry.record.tokenId, entry);
  }

  /** Takes an active session out of the indexes (before its record changes or goes); `keepTokenId` for one past its expiry. */
  unindex(entry: ActiveEntry, keepTokenId = false): void {
    this.unindexUser(entry);
    this.online.delete(entry);
    if (!keepTokenId && this.tokenIds.get(entry.record.tokenId) === entry) this.tokenIds.delete(entry.record.tokenId);
  }

  /**
   * Takes many active sessions out of every index at once (a bulk end: kick-all, replacement), each index
   * touched once (OrderedIndex.deleteMany); a user's index goes whole when all of its sessions go.
   */
  unindexMany(entries: readonly ActiveEntry[]): void {
    const byUser = new Map<string, ActiveEntry[]>();
    for (const e of entries) {
      const userId = e.record.principal.userId;
      const list = byUser.get(userId);
      if (list === undefined) byUser.set(userId, [e]);
      else list.push(e);
    }
    for (const [userId, list] of byUser) {
      const user = this.users.get(userId);
      if (!(user instanceof UserSessions)) list.forEach((e) => this.unindexUser(e));
      else if (list.length >= user.byAge.size && allIn(user.byAge.toArray(), new Set(list))) this.users.delete(userId);
      else {
        user.deleteMany(list);
        const first = user.byAge.first();
        if (first === undefined) this.users.delete(userId);
        else if (user.byAge.size === 1) this.users.set(userId, first);
      }
    }
    this.online.deleteMany(entries);
    for (const e of entries) if (this.tokenIds.get(e.record.tokenId) === e) this.tokenIds.delete(e.record.tokenId);
  }

  /** Takes an active session out of its user's index only. */
  unindexUser(entry: ActiveEntry): void {
    const userId = entry.record.principal.userId;
    const user = this.users.get(userId);
    if (user === entry) this.users.delete(userId);
    else if (user instanceof UserSessions && user.delete(entry)) {
      if (user.byAge.size === 1) this.users.set(userId, user.byAge.first() as SessionEntry);
    }
  }

  byTokenId(tokenId: string): SessionEntry | undefined {
    return this.tokenIds.get(tokenId);
  }

  /** Takes the user's sessions that are past their expiry at `now` out of the online and user indexes. */
  pruneUser(userId: string, now: number): void {
    // Past its expiry (at the head of the expiry order), or ended in bulk and still indexed (BulkEnds) when met there.
    for (;;) {
      const user = this.users.get(userId);
      const e = user instanceof UserSessions ? user.byExpiry.first() : user;
      if (e === undefined || e.record === null || (isActive(e) && isCurrent(e, now))) return;
      this.unindex(e as ActiveEntry, true);
    }
  }

  /** How many sessions the user index holds (after pruneUser: the current ones). */
  userCount(userId: string): number {
    const user = this.users.get(userId);
    return user === undefined ? 0 : user instanceof UserSessions ? user.byAge.size : 1;
  }

  /** Walks the user's indexed sessions in login order from position `offset` (OrderedIndex.walk, never dropping). */
  walkUser(userId: string, offset: number, visit: (entry: ActiveEntry) => boolean): void {
    const user = this.users.get(userId);
    if (user === undefined) return;
    if (!(user instanceof UserSessions)) {
      if (offset === 0 && isActive(user)) visit(user);
      return;
    }
    user.byAge.walk(offset, (e) => (!isActive(e) || visit(e) ? 'next' : 'stop'));
  }

  /** The user's indexed sessions in login order (a copy). */
  userEntries(userId: string): ActiveEntry[] {
    const user = this.users.get(userId);
    if (user === undefined) return [];
    return (user instanceof UserSessions ? user.byAge.toArray() : [user]).filter(isActive);
  }

  /** Entries held: sessions, tombstones and index entries. */
  size(): number {
    let n = this.sessions.size + this.tokenIds.size + this.online.size;
    for (const user of this.users.values()) n += user instanceof UserSessions ? user.byAge.size : 1;
    return n;
  }
}
