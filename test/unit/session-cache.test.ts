/**
 * The local session cache without Redis: the cached store over the in-memory session store, its
 * tracking link faked (reads served from that store, invalidations and link events sent by hand).
 * LRU bound, the read/invalidation race, flush and bypass while the link is down, ttl-ms, the
 * idle-timeout write policy, the write fence. The Redis side: test/contract/session-cache-store.test.ts
 * and test/reliability/session-cache*.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { CachedSessionStore, type SessionCacheMetrics } from '../../src/adapters/redis/session-cache/cached-session-store';
import { LruMap } from '../../src/adapters/redis/session-cache/lru';
import type { SessionTracking, TrackingEvents } from '../../src/adapters/redis/session-cache/tracking-link';
import { FencedSessionStore } from '../../src/adapters/redis/session-cache/write-fence';
import type { SessionStore } from '../../src/application/ports/session-store';
import type { SessionRecord, StoredSession } from '../../src/domain/session';
import { FakeClock } from '../support/fake-clock';
import type { LoginType } from '../../src/domain/login-type';

const KEYS = new RedisKeys('t:');
const IDLE = 60_000;

/** A tracking link whose reads come from the in-memory store; a read can be held until released. */
class FakeTracking implements SessionTracking {
  events!: TrackingEvents;
  reads = 0;
  private held: Array<() => void> | null = null;
  closed = false;

  constructor(private readonly store: SessionStore) {}

  start(events: TrackingEvents): void {
    this.events = events;
    events.ready();
  }

  /** Answers in the previous layout's form (record JSON, last-active): the whole hash is in the previous record key's name. */
  async read(_sessionKey: string, legacyKey: string): Promise<[string | null, string | null, number]> {
    this.reads++;
    if (this.held !== null) await new Promise<void>((resolve) => this.held?.push(resolve));
    const [, , type, hash] = legacyKey.split(':') as [string, string, LoginType, string];
    const got = await this.store.getSession(type, hash, 0, null);
    if (got === null) return [null, null, -2];
    if (got.state !== 'active') return [got.state, null, -1];
    return [JSON.stringify(got.record), String(got.lastActiveAt), -1];
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const resolve of waiting) resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Counts every call of the wrapped store's methods. */
function counted(store: SessionStore): { store: SessionStore; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        calls[prop] = (calls[prop] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

function recordingMetrics(): SessionCacheMetrics & { seen: Record<string, number> } {
  const seen: Record<string, number> = {};
  const bump = (k: string, n = 1) => (seen[k] = (seen[k] ?? 0) + n);
  return {
    seen,
    sessionCacheLookup: (r) => bump(r),
    sessionCacheInvalidated: (n) => bump('invalidated', n),
    sessionCacheFlushed: (r) => bump(`flush:${r}`),
    sessionCacheTracking: (up) => bump(up ? 'up' : 'down'),
  };
}

function setUp(opts: { maxEntries?: number; ttlMs?: number; hitOrdering?: 'own-turn' | 'caller' } = {}) {
  const clock = new FakeClock();
  const backend = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
  const inner = counted(backend.sessions);
  const tracking = new FakeTracking(backend.sessions);
  const metrics = recordingMetrics();
  const cache = new CachedSessionStore({
    inner: inner.store,
    keys: KEYS,
    tracking,
    clock,
    metrics,
    options: { maxEntries: opts.maxEntries ?? 100, ttlMs: opts.ttlMs ?? 60_000 },
    sweepMs: 3_600_000,
    ...(opts.hitOrdering ? { hitOrdering: opts.hitOrdering } : {}),
  }).start();
  async function login(userId = 'u1'): Promise<{ hash: string; key: string; record: SessionRecord }> {
    const hash = randomBytes(32).toString('hex');
    const now = clock.now();
    const record: SessionRecord = {
      v: 1,
      loginType: 'admin',
      tokenId: randomBytes(8).toString('hex'),
      createdAt: now,
      expiresAt: now + 3_600_000,
      principal: { userId, username: userId, roles: [], permissions: [] },
      client: {},
      attrs: {},
    };
    await backend.sessions.create({ loginType: 'admin', tokenHash: hash, record, retentionMs: 7_200_000, admission: { kind: 'add' }, now });
    return { hash, key: KEYS.session('admin', hash), record };
  }
  const get = (hash: string, idle: number | null = null): Promise<StoredSession | null> =>
    cache.getSession('admin', hash, clock.now(), idle);
  return { clock, backend, inner, tracking, metrics, cache, login, get };
}

describe('local session cache (unit, in-memory store behind a fake tracking link)', () => {
  it('LruMap keeps at most max entries and evicts the least recently used', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1); // a is now the most recent
    assert.equal(lru.set('c', 3), 1);
    assert.equal(lru.size, 2);
    assert.equal(lru.peek('b'), undefined, 'b was the least recently used');
    assert.deepEqual([lru.peek('a'), lru.peek('c')], [1, 3]);
    assert.throws(() => new LruMap(0), /at least 1/);
  });

  it('answers repeated reads from one tracked read, without a store call', async () => {
    const t = setUp();
    const s = await t.login();
    for (let i = 0; i < 5; i++)
      assert.deepEqual(await t.get(s.hash), { state: 'active', record: s.record, lastActiveAt: s.record.createdAt });
    assert.equal(t.tracking.reads, 1);
    assert.equal(t.inner.calls.getSession ?? 0, 0);
    assert.deepEqual([t.metrics.seen.miss, t.metrics.seen.hit], [1, 4]);
  });

  it('an invalidation drops the entry: the next read goes to Redis again and sees the change', async () => {
    const t = setUp();
    const s = await t.login();
    await t.get(s.hash);
    await t.backend.sessions.mark('admin', [s.hash], 'kicked-out'); // another instance's write
    t.tracking.events.invalidate([s.key, KEYS.lastActive('admin', s.hash), 't:kv:unrelated']);
    assert.deepEqual(await t.get(s.hash), { state: 'kicked-out' });
    assert.equal(t.tracking.reads, 2);
    assert.equal(t.metrics.seen.invalidated, 1, 'one cached entry dropped (the other keys are not cached)');
  });

  it('an invalidation that arrives in the same I/O turn as a hit is applied before the hit is answered', async () => {
    const t = setUp();
    const s = await t.login();
    await t.get(s.hash);
    await t.backend.sessions.deleteSession('admin', s.hash);
    const answer = t.get(s.hash); // a cached entry exists: the hit waits for the turn's I/O
    t.tracking.events.invalidate([s.key]);
    assert.equal(await answer, null);
  });

  it(
    "answerHitsInOwnTurn: a 'caller' cache whose reader lacks the check-phase edge makes its " + 'hits wait their turn from then on',
    async () => {
      const t = setUp({ hitOrdering: 'caller' });
      assert.equal(t.cache.hitOrderingInUse, 'caller');
      t.cache.answerHitsInOwnTurn();
      assert.equal(t.cache.hitOrderingInUse, 'own-turn');
      const s = await t.login();
      await t.get(s.hash);
      const order: string[] = [];
      setImmediate(() => order.push('end of turn'));
      await t.get(s.hash).then((got) => order.push(got?.state ?? 'null'));
      assert.deepEqual(order, ['end of turn', 'active']);
    },
  );

  it("with hitOrdering 'caller' a hit answers in the same turn (its caller already ran after the turn's I/O)", async () => {
    for (const hitOrdering of ['own-turn', 'caller'] as const) {
      const t = setUp({ hitOrdering });
      const s = await t.login();
      await t.get(s.hash);
      const order: string[] = [];
      setImmediate(() => order.push('end of turn'));
      const hit = t.get(s.hash).then((got) => order.push(got?.state ?? 'null'));
      await hit;
      assert.deepEqual(order, hitOrdering === 'caller' ? ['active'] : ['end of turn', 'active'], hitOrdering);
      assert.equal(t.tracking.reads, 1, 'the second read was a hit');
      await t.backend.sessions.deleteSession('admin', s.hash);
      t.tracking.events.invalidate([s.key]);
      assert.equal(await t.get(s.hash), null, 'an applied invalidation is seen at once');
    }
  });

  it('keeps at most max-entries sessions (LRU)', async () => {
    const t = setUp({ maxEntries: 2 });
    const [a, b, c] = [await t.login(), await t.login(), await t.login()];
    for (const s of [a, b, c]) await t.get(s.hash);
    assert.equal(t.cache.size, 2);
    await t.get(b.hash);
    await t.get(c.hash);
    assert.equal(t.tracking.reads, 3, 'b and c are cached');
    await t.get(a.hash);
    assert.equal(t.tracking.reads, 4, 'a was evicted');
    assert.equal(t.cache.size, 2);
  });

  it('a read that overlapped an invalidation of its key answers but is not cached; a later read does not join it', async () => {
    const t = setUp();
    const s = await t.login();
    t.tracking.hold();
    const first = t.get(s.hash);
    t.tracking.events.invalidate([s.key]);
    const second = t.get(s.hash); // arrives after the invalidation: must not share the first read
    await new Promise((r) => setImmediate(r));
    assert.equal(t.tracking.reads, 2);
    t.tracking.release();
    await Promise.all([first, second]);
    assert.equal(t.cache.size, 1, 'only the read sent after the invalidation fills the cache');
    await t.get(s.hash);
    assert.equal(t.tracking.reads, 2);
  });

  it('concurrent misses of one key share one tracked read', async () => {
    const t = setUp();
    const s = await t.login();
    t.tracking.hold();
    const reads = [t.get(s.hash), t.get(s.hash), t.get(s.hash)];
    await new Promise((r) => setImmediate(r));
    t.tracking.release();
    for (const r of await Promise.all(reads)) assert.equal(r?.state, 'active');
    assert.equal(t.tracking.reads, 1);
  });

  it('a read in flight when the link goes down is not cached; while down every read goes to the store (bypass)', async () => {
    const t = setUp();
    const s = await t.login();
    t.tracking.hold();
    const pending = t.get(s.hash);
    t.tracking.events.down('test');
    t.tracking.release();
    assert.equal((await pending)?.state, 'active');
    assert.equal(t.cache.size, 0);
    assert.equal(t.cache.tracking, false);
    await t.get(s.hash);
    await t.get(s.hash);
    assert.equal(t.inner.calls.getSession, 2, 'bypassed: the store answers');
    assert.equal(t.cache.size, 0);
    assert.deepEqual([t.metrics.seen['flush:link-down'], t.metrics.seen.bypass, t.metrics.seen.down], [1, 2, 1]);
    t.tracking.events.ready();
    await t.get(s.hash);
    await t.get(s.hash);
    assert.equal(t.inner.calls.getSession, 2, 'back: the cache answers again');
    assert.equal(t.cache.size, 1);
  });

  it('drops everything on a null invalidation (a database flush) and stays in use', async () => {
    const t = setUp();
    const s = await t.login();
    await t.get(s.hash);
    t.tracking.events.flushAll();
    assert.equal(t.cache.size, 0);
    await t.get(s.hash);
    assert.equal(t.cache.size, 1);
    assert.equal(t.metrics.seen['flush:server-flush'], 1);
  });

  it('uses an entry for ttl-ms at most', async () => {
    const t = setUp({ ttlMs: 1_000 });
    const s = await t.login();
    await t.get(s.hash);
    t.clock.advance(999);
    await t.get(s.hash);
    assert.equal(t.tracking.reads, 1);
    t.clock.advance(1);
    await t.get(s.hash);
    assert.equal(t.tracking.reads, 2);
  });

  describe('idle timeout (session.active-timeout)', () => {
    it('a hit records the use; the write waits until the stored last-active is idle/4 old, then one touch is written', async () => {
      const t = setUp();
      const s = await t.login();
      const t0 = t.clock.now();
      t.clock.advance(1_000);
      assert.equal((await t.get(s.hash, IDLE))?.state, 'active'); // miss: deferred touch at t0+1s
      t.clock.advance(1_000);
      const hit = await t.get(s.hash, IDLE);
      assert.equal(hit?.state === 'active' && hit.lastActiveAt, t0 + 1_000, 'the value before this use');
      assert.equal(t.inner.calls.getSession ?? 0, 0, 'nothing written yet');
      await t.cache.writeDueTouches();
      assert.equal(t.inner.calls.getSession ?? 0, 0, 'not due before idle/4');
      t.clock.advance(IDLE / 4);
      await t.cache.writeDueTouches();
      assert.equal(t.inner.calls.getSession, 1, 'one coalesced touch');
      const stored = await t.backend.sessions.getSession('admin', s.hash, 0, null);
      assert.equal(stored?.state === 'active' && stored.lastActiveAt, t0 + 2_000, 'the latest use');
    });

    it('a use when the stored last-active is idle/2 old is written before the answer', async () => {
      const t = setUp();
      const s = await t.login();
      const t0 = t.clock.now();
      await t.get(s.hash, IDLE);
      t.clock.advance(IDLE / 2);
      await t.get(s.hash, IDLE);
      assert.equal(t.inner.calls.getSession, 1);
      const stored = await t.backend.sessions.getSession('admin', s.hash, 0, null);
      assert.equal(stored?.state === 'active' && stored.lastActiveAt, t0 + IDLE / 2);
    });

    it('a session that looks frozen from the cache is asked of Redis: another instance kept it alive', async () => {
      const t = setUp();
      const s = await t.login();
      const t0 = t.clock.now();
      await t.get(s.hash, IDLE);
      await t.backend.sessions.getSession('admin', s.hash, t0 + IDLE - 1, IDLE); // another instance's use
      t.clock.advance(IDLE + 10);
      const got = await t.get(s.hash, IDLE);
      assert.equal(got?.state === 'active' && got.lastActiveAt, t0 + IDLE - 1, 'alive, as Redis knows');
      assert.equal(t.metrics.seen.hit ?? 0, 0);
    });

    it('never keeps a frozen session alive: idle past the limit reads as frozen, and no touch is written', async () => {
      const t = setUp();
      const s = await t.login();
      const t0 = t.clock.now();
      await t.get(s.hash); // cached
      t.clock.advance(IDLE + 1);
      const got = await t.get(s.hash, IDLE);
      assert.equal(got?.state === 'active' && got.lastActiveAt, t0);
      await t.cache.writeDueTouches(true);
      const stored = await t.backend.sessions.getSession('admin', s.hash, 0, null);
      assert.equal(stored?.state === 'active' && stored.lastActiveAt, t0, 'still frozen');
    });

    it('close() writes the waiting touches', async () => {
      const t = setUp();
      const s = await t.login();
      t.clock.advance(5_000);
      await t.get(s.hash, IDLE);
      await t.cache.close();
      const stored = await t.backend.sessions.getSession('admin', s.hash, 0, null);
      assert.equal(stored?.state === 'active' && stored.lastActiveAt, t.clock.now());
      assert.equal(t.tracking.closed, true);
    });
  });

  it('a write drops the local entry at once', async () => {
    const t = setUp();
    const s = await t.login();
    await t.get(s.hash);
    assert.equal(await t.cache.mark('admin', [s.hash], 'kicked-out'), 1);
    assert.deepEqual(await t.get(s.hash), { state: 'kicked-out' });
    assert.equal(await t.cache.deleteSession('admin', s.hash), true);
    assert.equal(await t.get(s.hash), null);
  });

  it('the write fence runs after every session write that changed something, and only then', async () => {
    const t = setUp();
    let fences = 0;
    const fenced = new FencedSessionStore(t.cache, async () => void fences++);
    const s = await t.login();
    const other = await t.login('u2');
    assert.equal(
      (
        await fenced.create({
          loginType: 'admin',
          tokenHash: 'ab'.repeat(32),
          record: { ...s.record, tokenId: 'ab'.repeat(8) },
          retentionMs: 60_000,
          admission: { kind: 'add' },
          now: t.clock.now(),
        })
      ).ended.length,
      0,
    );
    assert.equal(fences, 0, 'a login that replaced nothing');
    assert.equal(await fenced.update('admin', other.hash, { ...other.record, attrs: { x: '1' } }, 60_000), true);
    assert.equal(await fenced.update('admin', 'cd'.repeat(32), other.record, 60_000), false);
    assert.equal(fences, 1);
    assert.equal(await fenced.mark('admin', [s.hash], 'kicked-out'), 1);
    assert.equal(await fenced.mark('admin', [s.hash], 'kicked-out'), 0);
    assert.equal(fences, 2);
    assert.equal(await fenced.deleteSession('admin', other.hash), true);
    assert.equal(await fenced.deleteSession('admin', other.hash), false);
    assert.equal(fences, 3);
    const third = await t.login('u3');
    const replacing = await fenced.create({
      loginType: 'admin',
      tokenHash: 'ef'.repeat(32),
      record: { ...third.record, tokenId: 'ef'.repeat(8) },
      retentionMs: 60_000,
      admission: { kind: 'replace', deviceType: null },
      now: t.clock.now(),
    });
    assert.equal(replacing.ended.length, 1);
    assert.equal(fences, 4);
    assert.equal((await fenced.getSession('admin', third.hash, t.clock.now(), null))?.state, 'replaced');
    assert.equal(fences, 4, 'reads never fence');
  });
});
