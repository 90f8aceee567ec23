/**
 * In-process implementation of the store ports, for tests, local development and
 * single-instance deployments. Behaves like the Redis adapter (same contract suites):
 *
 * - every method runs synchronously inside, so it is atomic on the event loop;
 * - store-owned TTLs (retention, key-value TTLs) are measured with the injected Clock,
 *   logical times (`now` arguments: idle, expiresAt, rate-limit windows) come from the caller;
 * - expired entries are evicted when read, by `sweep()`, and by an unref'd interval timer,
 *   so memory stays bounded even for keys that are never read again;
 * - session records are kept as JSON and parsed on the way out, so callers never share
 *   (or mutate) the stored object, exactly as with Redis.
 */
import type { Clock } from '../../application/ports/clock';
import type { KeyValueStore } from '../../application/ports/key-value-store';
import type { ListStore } from '../../application/ports/list-store';
import type { RateLimitDecision, RateLimitStore } from '../../application/ports/rate-limit-store';
import type { CreateSessionInput, ListedSession, SessionStore } from '../../application/ports/session-store';
import type { StoreHealth } from '../../application/ports/store-health';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';

export interface InMemoryStoreOptions {
  /** How often the background sweep runs; 0 disables the timer (call `sweep()` yourself). Default 60 s. */
  readonly sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/** Joins the parts of a composite map key; NUL cannot appear in login types, ids or hashes. */
const SEP = '\u0000';
const key2 = (a: string, b: string): string => `${a}${SEP}${b}`;

/** A stored active session, with the fields the indexes and filters need kept beside the JSON. */
interface ActiveEntry {
  readonly kind: 'active';
  readonly json: string;
  /** The record parsed once and deep-frozen: readers share it and cannot change the stored copy. */
  parsed?: SessionRecord;
  readonly userId: string;
  readonly tokenId: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  lastActiveAt: number;
  /** Retention deadline on the store clock, null = kept forever. */
  readonly deadline: number | null;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}

function activeEntry(record: SessionRecord, lastActiveAt: number, deadline: number | null): ActiveEntry {
  return {
    kind: 'active',
    json: JSON.stringify(record),
    userId: record.principal.userId,
    tokenId: record.tokenId,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    lastActiveAt,
    deadline,
  };
}

/** Parsing once per write instead of once per read (a resolve is one read per authenticated request). */
function recordOf(entry: ActiveEntry): SessionRecord {
  entry.parsed ??= deepFreeze(JSON.parse(entry.json) as SessionRecord);
  return entry.parsed;
}

/** A kicked-out / replaced marker; it keeps the deadline of the session it replaced. */
interface TombstoneEntry {
  readonly kind: TombstoneState;
  readonly deadline: number | null;
}

type SessionEntry = ActiveEntry | TombstoneEntry;

interface ListEntry {
  items: string[];
  deadline: number;
}

interface KvEntry {
  value: string;
  readonly deadline: number | null;
}

/** Accepted hits of one rate-limit key (ascending) and the window last used with it. */
interface HitLog {
  hits: number[];
  windowMs: number;
}

/** Store TTLs are whole milliseconds, at least 1 (as Redis PX requires). */
function normTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

function isCurrent(entry: ActiveEntry, now: number): boolean {
  return entry.expiresAt === null || entry.expiresAt > now;
}

export class InMemoryStore implements SessionStore, KeyValueStore, ListStore, RateLimitStore, StoreHealth {
  /** loginType + tokenHash -> session or tombstone. */
  private readonly sessions = new Map<string, SessionEntry>();
  /** loginType + userId -> hashes of that user's active sessions. */
  private readonly byUser = new Map<string, Set<string>>();
  /** loginType -> hashes of its active sessions (for listAll). */
  private readonly byType = new Map<string, Set<string>>();
  /** loginType + tokenId -> tokenHash. */
  private readonly byTokenId = new Map<string, string>();
  private readonly kv = new Map<string, KvEntry>();
  private readonly rateLogs = new Map<string, HitLog>();
  private readonly lists = new Map<string, ListEntry>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: Clock,
    opts: InMemoryStoreOptions = {},
  ) {
    const interval = opts.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (interval > 0) {
      this.timer = setInterval(() => this.sweep(), interval);
      this.timer.unref(); // never keeps the process alive
    }
  }

  // ---------------------------------------------------------------- SessionStore

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

    const entry = activeEntry(record, input.now, this.deadline(input.retentionMs));
    this.sessions.set(key2(loginType, tokenHash), entry);
    this.index(loginType, tokenHash, entry);
    return { replaced };
  }

  async getSession(loginType: string, tokenHash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry === undefined) return null;
    if (entry.kind !== 'active') return { state: entry.kind };
    const lastActiveAt = entry.lastActiveAt;
    // Touch only a session that is not already frozen (idle longer than the limit).
    if (idleLimitMs !== null && now > lastActiveAt && now - lastActiveAt <= idleLimitMs) entry.lastActiveAt = now;
    return { state: 'active', record: recordOf(entry), lastActiveAt };
  }

  async update(loginType: string, tokenHash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const entry = this.liveSession(loginType, tokenHash);
    if (entry?.kind !== 'active') return false;
    this.unindex(loginType, tokenHash, entry);
    const next = activeEntry(record, entry.lastActiveAt, this.deadline(retentionMs));
    this.sessions.set(key2(loginType, tokenHash), next);
    this.index(loginType, tokenHash, next);
    return true;
  }

  async deleteSession(keyOrType: string, tokenHash: string): Promise<boolean> {
    const entry = this.liveSession(keyOrType, tokenHash);
    if (entry === undefined) return false;
    this.removeSession(keyOrType, tokenHash, entry);
    return true;
  }

  async mark(loginType: string, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    let changed = 0;
    for (const hash of tokenHashes) {
      const entry = this.liveSession(loginType, hash);
      if (entry?.kind !== 'active') continue; // missing or already a tombstone
      this.tombstone(loginType, hash, entry, state);
      changed++;
    }
    return changed;
  }

  async listByUser(loginType: string, userId: string, now: number): Promise<ListedSession[]> {
    const userKey = key2(loginType, userId);
    const hashes = this.byUser.get(userKey);
    if (hashes === undefined) return [];
    const out: ListedSession[] = [];
    for (const hash of [...hashes]) {
      const entry = this.liveSession(loginType, hash);
      if (entry?.kind !== 'active') {
        hashes.delete(hash); // dead index entry
        continue;
      }
      if (isCurrent(entry, now)) out.push(this.listed(hash, entry));
    }
    if (hashes.size === 0) this.byUser.delete(userKey);
    return out.sort(byCreatedAt);
  }

  async listAll(loginType: string, now: number, limit: number): Promise<ListedSession[]> {
    if (limit <= 0) return [];
    const hashes = this.byType.get(loginType);
    if (hashes === undefined) return [];
    const out: ListedSession[] = [];
    for (const hash of [...hashes]) {
      const entry = this.liveSession(loginType, hash);
      if (entry?.kind !== 'active') {
        hashes.delete(hash);
        continue;
      }
      if (isCurrent(entry, now)) out.push(this.listed(hash, entry));
    }
    if (hashes.size === 0) this.byType.delete(loginType);
    return out.sort(byCreatedAt).slice(0, limit);
  }

  async findByTokenId(loginType: string, tokenId: string): Promise<string | null> {
    const hash = this.byTokenId.get(key2(loginType, tokenId));
    if (hash === undefined) return null;
    return this.liveSession(loginType, hash)?.kind === 'active' ? hash : null;
  }

  // ---------------------------------------------------------------- KeyValueStore

  async get(key: string): Promise<string | null> {
    return this.liveKv(key)?.value ?? null;
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.liveKv(key) !== undefined;
    this.kv.delete(key);
    return existed;
  }

  async set(key: string, value: string, ttlMs: number | null): Promise<void> {
    this.kv.set(key, { value, deadline: this.deadline(ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.liveKv(key) !== undefined) return false;
    this.kv.set(key, { value, deadline: this.deadline(ttlMs) });
    return true;
  }

  async getAndDelete(key: string): Promise<string | null> {
    const entry = this.liveKv(key);
    if (entry === undefined) return null;
    this.kv.delete(key);
    return entry.value;
  }

  async deleteIfEquals(key: string, expected: string): Promise<boolean> {
    const entry = this.liveKv(key);
    if (entry === undefined || entry.value !== expected) return false;
    this.kv.delete(key);
    return true;
  }

  async setIfAbsentOrGet(key: string, value: string, ttlMs: number): Promise<string | null> {
    const entry = this.liveKv(key);
    if (entry !== undefined) return entry.value;
    this.kv.set(key, { value, deadline: this.deadline(ttlMs) });
    return null;
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.liveKv(key);
    if (entry === undefined || entry.value !== expected) return false;
    this.kv.set(key, { value, deadline: this.deadline(ttlMs) });
    return true;
  }

  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const now = this.clock.now();
    let entry = this.liveKv(key);
    if (entry === undefined) {
      entry = { value: '0', deadline: now + normTtl(ttlMs) };
      this.kv.set(key, entry);
    } else if (entry.deadline === null) {
      // A counter must not live forever (same as the Redis script): give it the TTL now.
      entry = { value: entry.value, deadline: now + normTtl(ttlMs) };
      this.kv.set(key, entry);
    }
    if (!/^-?\d+$/.test(entry.value)) throw new Error(`increment: value of ${key} is not an integer`);
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return { count, ttlMs: (entry.deadline ?? now) - now };
  }

  // ---------------------------------------------------------------- ListStore

  async append(key: string, item: string, maxLength: number, ttlMs: number): Promise<number> {
    const entry = this.liveList(key) ?? { items: [], deadline: 0 };
    entry.items.push(item);
    const keep = Math.max(1, Math.floor(maxLength));
    if (entry.items.length > keep) entry.items.splice(0, entry.items.length - keep);
    entry.deadline = this.clock.now() + normTtl(ttlMs);
    this.lists.set(key, entry);
    return entry.items.length;
  }

  async list(key: string): Promise<string[]> {
    return [...(this.liveList(key)?.items ?? [])];
  }

  // ---------------------------------------------------------------- RateLimitStore

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision> {
    const log = this.rateLogs.get(key) ?? { hits: [], windowMs };
    log.windowMs = windowMs;
    // Forget hits outside the window (now - windowMs, now].
    const cutoff = now - windowMs;
    let drop = 0;
    while (drop < log.hits.length && (log.hits[drop] ?? Infinity) <= cutoff) drop++;
    if (drop > 0) log.hits.splice(0, drop);

    const count = log.hits.length;
    if (count < limit) {
      // Keep the log sorted even if callers' clocks are not perfectly monotonic.
      let at = log.hits.length;
      while (at > 0 && (log.hits[at - 1] ?? -Infinity) > now) at--;
      log.hits.splice(at, 0, now);
      this.rateLogs.set(key, log);
      const newest = log.hits[log.hits.length - 1] ?? now;
      return { allowed: true, remaining: limit - count - 1, retryAfterMs: 0, resetMs: newest + windowMs - now };
    }

    // Rejected: not recorded. One more hit fits once the (count - limit + 1)-th oldest leaves the window.
    if (count === 0) {
      this.rateLogs.delete(key);
      return { allowed: false, remaining: 0, retryAfterMs: windowMs, resetMs: 0 };
    }
    const freeing = limit > 0 ? log.hits[count - limit] : undefined;
    const newest = log.hits[count - 1] ?? now;
    return {
      allowed: false,
      remaining: 0,
      retryAfterMs: freeing === undefined ? windowMs : freeing + windowMs - now,
      resetMs: newest + windowMs - now,
    };
  }

  async reset(key: string): Promise<void> {
    this.rateLogs.delete(key);
  }

  // ---------------------------------------------------------------- StoreHealth

  async ping(): Promise<{ up: boolean; latencyMs: number; detail?: string }> {
    return { up: true, latencyMs: 0 };
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  // ---------------------------------------------------------------- housekeeping

  /**
   * Evicts every entry whose TTL has passed on the store clock (sessions, tombstones,
   * key-value entries, idle rate-limit logs) together with its index entries.
   * Returns how many top-level entries were removed.
   */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [k, entry] of this.sessions) {
      if (entry.deadline === null || entry.deadline > now) continue;
      const sep = k.indexOf(SEP);
      this.removeSession(k.slice(0, sep), k.slice(sep + 1), entry);
      removed++;
    }
    for (const [k, entry] of this.kv) {
      if (entry.deadline !== null && entry.deadline <= now) {
        this.kv.delete(k);
        removed++;
      }
    }
    for (const [k, entry] of this.lists) {
      if (entry.deadline <= now) {
        this.lists.delete(k);
        removed++;
      }
    }
    for (const [k, log] of this.rateLogs) {
      const newest = log.hits[log.hits.length - 1];
      if (newest === undefined || newest + log.windowMs <= now) {
        this.rateLogs.delete(k);
        removed++;
      }
    }
    return removed;
  }

  /**
   * Entries currently held across all maps, index entries included (expired entries count
   * until they are evicted). 0 when the store holds nothing: what a memory-bound test watches.
   */
  size(): number {
    let n = this.sessions.size + this.byTokenId.size + this.kv.size + this.rateLogs.size + this.lists.size;
    for (const set of this.byUser.values()) n += set.size;
    for (const set of this.byType.values()) n += set.size;
    return n;
  }

  // ---------------------------------------------------------------- internals

  private deadline(ttlMs: number | null): number | null {
    return ttlMs === null ? null : this.clock.now() + normTtl(ttlMs);
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

  private liveKv(key: string): KvEntry | undefined {
    const entry = this.kv.get(key);
    if (entry === undefined) return undefined;
    if (entry.deadline !== null && entry.deadline <= this.clock.now()) {
      this.kv.delete(key);
      return undefined;
    }
    return entry;
  }

  private liveList(key: string): ListEntry | undefined {
    const entry = this.lists.get(key);
    if (entry === undefined) return undefined;
    if (entry.deadline <= this.clock.now()) {
      this.lists.delete(key);
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

  private listed(tokenHash: string, entry: ActiveEntry): ListedSession {
    return { tokenHash, record: recordOf(entry), lastActiveAt: entry.lastActiveAt };
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

/** Oldest first; ties by hash, like a Redis sorted set scored by createdAt. */
function byCreatedAt(a: ListedSession, b: ListedSession): number {
  if (a.record.createdAt !== b.record.createdAt) return a.record.createdAt - b.record.createdAt;
  return a.tokenHash < b.tokenHash ? -1 : a.tokenHash > b.tokenHash ? 1 : 0;
}
