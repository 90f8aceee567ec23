/**
 * SessionStore with a per-process cache of session records, kept coherent by Redis
 * server-assisted client-side caching (session.local-cache.*; see docs/sessions.md, "Local session
 * cache"). It wraps the Redis store: every write goes to it and drops the local entry (the write
 * fence around it is write-fence.ts); reads are answered from the cache while the tracking link is up.
 *
 * - A miss reads the session's key (and, for a session of the previous layout, its record and last-active
 *   keys) with its PTTL on the tracking connection, so Redis tracks them; a reply that overlapped an
 *   invalidation of its key or a flush is not cached. An invalidation of a previous-layout record key
 *   drops the entry cached under the session key its hash names now (RedisKeys.sessionKeyOfLegacy).
 *   A touch writes the session's key (its last-active head): it drops the entry on every instance, so
 *   each write of a touch (at most one per session per active-timeout/4, idle-touches.ts) costs a miss.
 * - An invalidation that arrived with a request is applied before a hit answers that request: the
 *   hit first lets the event loop finish its current I/O turn (hitOrdering 'own-turn'), or, with
 *   'caller', relies on its caller running after that turn's I/O callbacks already (the HTTP edge
 *   starts every request in the check phase; see CachedSessionStoreDeps.hitOrdering).
 * - While the link is down every read goes to the Redis store (bypass) and the cache stays empty.
 * - Idle timeout: see idle-touches.ts. A hit never declares a session frozen: one that looks
 *   frozen locally is read (and touched) in Redis, which knows every instance's uses.
 * Key names come from RedisKeys only; invalidation messages are mapped back through them.
 */
import type { Clock } from '../../../application/ports/clock';
import type { Metrics } from '../../../application/ports/metrics';
import type {
  CreateSessionInput,
  CreateSessionResult,
  ListedSession,
  OnlinePage,
  UserSessionPage,
  UserSessionQuery,
  OnlineQuery,
  SessionStore,
} from '../../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../../domain/session';
import type { SessionPatch } from '../../../domain/session-patch';
import type { RedisKeys } from '../key-layout';
import { storedSessionOf } from '../session-values';
import { type CacheEntry, CacheEntries, entryDeadline } from './cache-entries';
import { mustWriteThrough, type PendingTouch, PendingTouches, storedAfterTouch, SWEEP_MS } from './idle-touches';
import type { SessionTracking } from './tracking-link';
import type { LoginType } from '../../../domain/login-type';

export type SessionCacheMetrics = Pick<
  Metrics,
  'sessionCacheLookup' | 'sessionCacheInvalidated' | 'sessionCacheFlushed' | 'sessionCacheTracking'
>;

export interface SessionCacheOptions {
  /** LRU bound (session.local-cache.max-entries). */
  readonly maxEntries: number;
  /** Longest time an entry is used (session.local-cache.ttl-ms). */
  readonly ttlMs: number;
}

export interface CachedSessionStoreDeps {
  /** The Redis session store. */
  readonly inner: SessionStore;
  readonly keys: RedisKeys;
  readonly tracking: SessionTracking;
  readonly clock: Clock;
  readonly metrics: SessionCacheMetrics;
  readonly options: SessionCacheOptions;
  /** Ms between sweeps of the waiting last-active writes. Default SWEEP_MS. */
  readonly sweepMs?: number;
  /**
   * How a hit makes sure that the invalidations which arrived in the same I/O turn as its request
   * were applied before it answers (a logout answered by another instance must be seen by the next
   * request that instance's client sends here):
   * - 'own-turn' (default): the hit waits for the end of the current event-loop turn (setImmediate,
   *   shared by all hits of the turn), whoever calls it;
   * - 'caller': every caller already runs after the I/O callbacks of the turn that read its
   *   request, so the hit answers at once. True of the HTTP apps: requestContext, the first
   *   middleware of every app (src/adapters/koa/http-app.ts), starts each request in that turn's
   *   check phase (CheckPhaseStart), after the tracking connection's data of the turn was handled
   *   (test/unit/request-start.test.ts; assembleApp checks each app's edge and calls
   *   answerHitsInOwnTurn otherwise). Saves a loop turn per hit batch (~7 % CPU). */
  readonly hitOrdering?: 'own-turn' | 'caller';
}

export class CachedSessionStore implements SessionStore {
  private readonly entries: CacheEntries;
  private readonly touches = new PendingTouches();
  private coherent = false;
  private sweeper: NodeJS.Timeout | undefined;
  private turnDone: Promise<void> | null = null;
  private hitOrdering: 'own-turn' | 'caller';

  constructor(private readonly d: CachedSessionStoreDeps) {
    this.entries = new CacheEntries(d.options.maxEntries);
    this.hitOrdering = d.hitOrdering ?? 'own-turn';
  }

  /** How hits answer now (see CachedSessionStoreDeps.hitOrdering); answerHitsInOwnTurn turns it to 'own-turn'. */
  get hitOrderingInUse(): 'own-turn' | 'caller' {
    return this.hitOrdering;
  }
  answerHitsInOwnTurn(): void {
    this.hitOrdering = 'own-turn';
  }

  /** Starts the tracking link (the cache is bypassed until it is ready) and the sweep of waiting touches. */
  start(): this {
    const { metrics } = this.d;
    this.d.tracking.start({
      ready: () => {
        this.entries.flush();
        this.coherent = true;
        metrics.sessionCacheTracking(true);
      },
      down: () => {
        this.coherent = false;
        this.entries.flush();
        metrics.sessionCacheFlushed('link-down');
        metrics.sessionCacheTracking(false);
      },
      invalidate: (keys) => {
        let dropped = 0;
        for (const key of keys) {
          // A session of the previous layout is cached under the key its hash names now.
          const named = this.d.keys.sessionKeyOfLegacy(key);
          if (this.entries.invalidate(named ?? key)) dropped++;
        }
        if (dropped > 0) metrics.sessionCacheInvalidated(dropped);
      },
      flushAll: () => {
        this.entries.flush();
        metrics.sessionCacheFlushed('server-flush');
      },
    });
    this.sweeper = setInterval(() => void this.writeDueTouches(), this.d.sweepMs ?? SWEEP_MS);
    this.sweeper.unref();
    return this;
  }

  /** Writes every waiting touch, then closes the tracking link. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.coherent = false;
    await this.writeDueTouches(true);
    await this.d.tracking.close();
  }

  /** Writes the waiting last-active touches that are due (every one with `all`); the sweep calls it. */
  async writeDueTouches(all = false): Promise<void> {
    await Promise.all(this.touches.takeDue(this.d.clock.now(), all).map(([key, touch]) => this.writeTouch(key, touch)));
  }

  /** Entries held (tests, diagnostics). */
  get size(): number {
    return this.entries.size;
  }

  /** True while the cache is used (its tracking link is up). */
  get tracking(): boolean {
    return this.coherent;
  }

  /** Whether a session is cached right now (tests, diagnostics). */
  holds(type: LoginType, hash: string): boolean {
    return this.entries.has(this.d.keys.session(type, hash));
  }

  async getSession(type: LoginType, hash: string, now: number, idleMs: number | null): Promise<StoredSession | null> {
    const key = this.d.keys.session(type, hash);
    if (!this.coherent) {
      this.d.metrics.sessionCacheLookup('bypass');
      return this.readThrough(type, hash, key, now, idleMs);
    }
    const entry = this.entries.lookup(key, this.d.clock.now());
    // Another token whose hash has the same first 32 hex digits: the Redis store checks the whole hash.
    if (entry !== undefined && entry.hash !== hash) return this.d.inner.getSession(type, hash, now, idleMs);
    if (entry !== undefined) {
      if (this.hitOrdering !== 'caller') await this.turn();
      if (this.coherent && this.entries.peek(key) === entry) return this.answer(type, hash, key, entry, now, idleMs, false);
    }
    return this.miss(type, hash, key, now, idleMs);
  }

  async create(input: CreateSessionInput): Promise<CreateSessionResult> {
    const result = await this.d.inner.create(input);
    this.entries.invalidate(this.d.keys.session(input.loginType, input.tokenHash));
    this.forget(
      input.loginType,
      result.ended.map((e) => e.tokenHash),
    );
    return result;
  }

  async update(type: LoginType, hash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const ok = await this.d.inner.update(type, hash, record, retentionMs);
    this.entries.invalidate(this.d.keys.session(type, hash));
    return ok;
  }

  async patch(type: LoginType, hash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    // The Redis store reads the record itself (never this cache): the patch applies to the record as stored.
    const record = await this.d.inner.patch(type, hash, change);
    this.entries.invalidate(this.d.keys.session(type, hash));
    return record;
  }

  async deleteSession(type: LoginType, hash: string): Promise<boolean> {
    const removed = await this.d.inner.deleteSession(type, hash);
    this.forget(type, [hash]);
    return removed;
  }

  async deleteMany(type: LoginType, tokenHashes: readonly string[]): Promise<number> {
    const removed = await this.d.inner.deleteMany(type, tokenHashes);
    this.forget(type, tokenHashes);
    return removed;
  }

  async mark(type: LoginType, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    const n = await this.d.inner.mark(type, tokenHashes, state);
    this.forget(type, tokenHashes);
    return n;
  }

  async listByUser(type: LoginType, userId: string, now: number): Promise<ListedSession[]> {
    return this.withLocalUses(type, await this.d.inner.listByUser(type, userId, now));
  }
  async listUserPage(type: LoginType, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage> {
    const page = await this.d.inner.listUserPage(type, userId, now, query);
    return { ...page, sessions: this.withLocalUses(type, page.sessions) };
  }

  async listPage(type: LoginType, now: number, query: OnlineQuery): Promise<OnlinePage> {
    const page = await this.d.inner.listPage(type, now, query);
    return { ...page, sessions: this.withLocalUses(type, page.sessions) };
  }

  findByTokenId(type: LoginType, tokenId: string): Promise<string | null> {
    return this.d.inner.findByTokenId(type, tokenId);
  }

  /** Reads a session on the tracking connection (one MGET + PTTL) and caches it unless the read overlapped an invalidation. */
  private async miss(type: LoginType, hash: string, key: string, now: number, idleMs: number | null): Promise<StoredSession | null> {
    const legacyKeys = [this.d.keys.legacySession(type, hash), this.d.keys.lastActive(type, hash)] as const;
    let read;
    try {
      read = await this.entries.read(key, () => this.d.tracking.read(key, ...legacyKeys));
    } catch {
      this.d.metrics.sessionCacheLookup('bypass');
      return this.readThrough(type, hash, key, now, idleMs);
    }
    this.d.metrics.sessionCacheLookup('miss');
    const [raw, lastRaw, pttl] = read.value;
    const stored = storedSessionOf(hash, raw, lastRaw);
    if (stored === null) return null;
    const entry: CacheEntry = {
      hash,
      value: stored.state === 'active' ? { state: 'active', record: stored.record } : stored,
      knownLastActive: stored.state === 'active' ? stored.lastActiveAt : 0,
      localLastActive: this.touches.peek(key)?.at ?? 0,
      deadline: entryDeadline(this.d.clock.now(), this.d.options.ttlMs, pttl),
    };
    if (read.cacheable && this.coherent && pttl !== -2) this.entries.insert(key, entry);
    return this.answer(type, hash, key, entry, now, idleMs, true);
  }

  /** An entry's answer (`fresh`: just read); a use is a waiting touch or written through; a frozen-looking one asks Redis. */
  private answer(
    type: LoginType,
    hash: string,
    key: string,
    entry: CacheEntry,
    now: number,
    idleMs: number | null,
    fresh: boolean,
  ): StoredSession | Promise<StoredSession | null> {
    const { value } = entry;
    if (value.state !== 'active') {
      if (!fresh) this.d.metrics.sessionCacheLookup('hit');
      return { state: value.state };
    }
    const last = Math.max(entry.knownLastActive, entry.localLastActive);
    if (idleMs !== null) {
      const frozen = now - last > idleMs;
      if ((frozen && !fresh) || (!frozen && mustWriteThrough(now, entry.knownLastActive, idleMs))) {
        if (!fresh) this.d.metrics.sessionCacheLookup('miss');
        return this.readThrough(type, hash, key, now, idleMs);
      }
      if (!frozen && now > last) {
        entry.localLastActive = now;
        this.touches.record(key, { loginType: type, tokenHash: hash, at: now, idleMs, knownLastActive: entry.knownLastActive });
      }
    }
    if (!fresh) this.d.metrics.sessionCacheLookup('hit');
    return { state: 'active', record: value.record, lastActiveAt: last };
  }

  /** The Redis store's own read (and touch), after the session's waiting touch (same connection, so in that order). */
  private async readThrough(type: LoginType, hash: string, key: string, now: number, idleMs: number | null): Promise<StoredSession | null> {
    const waiting = this.touches.take(key);
    const flushed = waiting === undefined ? null : this.writeTouch(key, waiting);
    const [result] = await Promise.all([this.d.inner.getSession(type, hash, now, idleMs), flushed]);
    this.learn(key, result, now, idleMs);
    return result;
  }

  /** Writes one waiting touch (the Redis store's touch at its time); puts it back if that fails and it still matters. */
  private async writeTouch(key: string, touch: PendingTouch): Promise<void> {
    try {
      const result = await this.d.inner.getSession(touch.loginType, touch.tokenHash, touch.at, touch.idleMs);
      this.learn(key, result, touch.at, touch.idleMs);
    } catch {
      if (this.d.clock.now() - touch.at <= touch.idleMs) this.touches.restore(key, touch);
    }
  }

  /** What a read or touch in Redis taught about a cached session: its stored last-active, or that the entry is out of date. */
  private learn(key: string, result: StoredSession | null, at: number, idleMs: number | null): void {
    const entry = this.entries.peek(key);
    if (entry === undefined) return;
    if (result === null || result.state !== 'active' || entry.value.state !== 'active') {
      this.entries.invalidate(key);
      return;
    }
    const stored = idleMs === null ? result.lastActiveAt : storedAfterTouch(at, result.lastActiveAt, idleMs);
    if (stored > entry.knownLastActive) entry.knownLastActive = stored;
  }

  /** Sessions removed or tombstoned by this instance: their entries and waiting touches go. */
  private forget(type: LoginType, hashes: readonly string[]): void {
    for (const hash of hashes) {
      const key = this.d.keys.session(type, hash);
      this.entries.invalidate(key);
      this.touches.drop(key);
    }
  }

  /** Listings show this instance's uses not yet written. */
  private withLocalUses(type: LoginType, listed: ListedSession[]): ListedSession[] {
    if (this.touches.size === 0) return listed;
    return listed.map((s) => {
      const waiting = this.touches.peek(this.d.keys.session(type, s.tokenHash));
      return waiting !== undefined && waiting.at > s.lastActiveAt ? { ...s, lastActiveAt: waiting.at } : s;
    });
  }

  /** Resolves after the current event-loop turn's I/O callbacks (shared by every hit of the turn). */
  private turn(): Promise<void> {
    this.turnDone ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turnDone = null;
        resolve();
      }),
    );
    return this.turnDone;
  }
}
