/**
 * The online index at scale on Redis (issue 30), in both key layouts on one server: pages merged
 * across the buckets from a start found by the pivot search (every offset, ties of createdAt
 * included), the legacy unbucketed index of earlier releases (plain) and the entries of a release
 * with 16 buckets (tagged) listed, removed, and drained or moved by the background sweeper, the sweeper's bounded
 * pruning of ended and expired sessions, and bulk ends of one user's
 * many sessions (more than one chunk) leaving no index entry behind.
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { bucketOf, type KeyLayoutKind, PREVIOUS_TAGGED_BUCKETS, RedisKeys } from '../../src/adapters/redis/key-layout';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { END_CHUNK } from '../../src/adapters/redis/session-ends';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import type { OnlineQuery } from '../../src/application/ports/session-store';
import type { SessionRecord } from '../../src/domain/session';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;
const T0 = Date.now();

for (const layout of ['plain', 'tagged'] as KeyLayoutKind[]) {
  describe(`Redis online index at scale (${layout} layout)`, function () {
    this.timeout(60_000);
    let client: Redis | undefined;
    let prefix = '';
    let store: RedisSessionStore;
    let keys: RedisKeys;

    before(async function () {
      await requireRedis(this);
      client = createRedisClient(REDIS_URL);
    });
    after(async () => client?.quit());
    beforeEach(() => {
      prefix = testKeyPrefix(`online-${layout}`);
      store = new RedisSessionStore(redis(), prefix, layout);
      keys = new RedisKeys(prefix, layout);
    });
    afterEach(async () => {
      if (client !== undefined) await deleteByPrefix(client, prefix);
    });
    const redis = (): Redis => {
      if (client === undefined) throw new Error('redis client not ready');
      return client;
    };

    async function login(record: SessionRecord, hash = newHash(), admission: 'add' | 'replace' = 'add'): Promise<string> {
      const result = await store.create({
        loginType: 'admin',
        tokenHash: hash,
        record,
        retentionMs: 2 * HOUR,
        admission: admission === 'add' ? { kind: 'add' } : { kind: 'replace', deviceType: null },
        now: T0,
      });
      assert.equal(result.outcome, 'created');
      return hash;
    }
    const query = (offset: number, limit: number): OnlineQuery => ({ offset, limit, scanLimit: 10_000, exactCountUpTo: 0 });
    const page = async (offset: number, limit: number, now = T0) =>
      (await store.listPage('admin', now, query(offset, limit))).sessions.map((s) => s.tokenHash);
    const entries = async (): Promise<number> => {
      const counts = await Promise.all(keys.allKeys('admin').map((k) => redis().zcard(k)));
      return counts.reduce((a, b) => a + b, 0);
    };
    const byAge = (made: Array<{ hash: string; at: number }>): string[] =>
      [...made].sort((a, b) => a.at - b.at || (a.hash < b.hash ? -1 : 1)).map((m) => m.hash);

    it('pages the buckets merged, oldest first (createdAt, then hash), from any offset, ties included', async () => {
      const made: Array<{ hash: string; at: number }> = [];
      for (let i = 0; i < 70; i++) {
        const at = T0 - 10_000 + Math.floor(i / 3) * 7; // three logins per millisecond
        made.push({ hash: await login(makeRecord({ createdAt: at, expiresAt: T0 + HOUR })), at });
      }
      const order = byAge(made);
      for (const offset of [0, 1, 2, 3, 17, 33, 34, 50, 68, 69])
        assert.deepEqual(await page(offset, 5), order.slice(offset, offset + 5), `offset ${offset}`);
      assert.deepEqual(await page(70, 5), []);
      const all: string[] = [];
      for (let offset = 0; offset < 70; offset += 9) all.push(...(await page(offset, 9)));
      assert.deepEqual(all, order);
    });

    it('a user page is decided in Redis: oldest first, exact total, device filter, ended sessions left out', async () => {
      const made: Array<{ hash: string; at: number }> = [];
      for (let i = 0; i < 30; i++) {
        const at = T0 - 1000 + ((i * 7) % 30);
        made.push({ hash: await login(makeRecord({ userId: 'pager', createdAt: at, deviceType: i % 3 === 0 ? 'APP' : 'PC' })), at });
      }
      const order = byAge(made);
      const got = await store.listUserPage('admin', 'pager', T0, { offset: 5, limit: 10 });
      assert.deepEqual(
        got.sessions.map((s) => s.tokenHash),
        order.slice(5, 15),
      );
      assert.equal(got.total, 30);
      const countOnly = await store.listUserPage('admin', 'pager', T0, { offset: 0, limit: 0 });
      assert.deepEqual(countOnly, { sessions: [], total: 30 });
      const apps = await store.listUserPage('admin', 'pager', T0, { offset: 0, limit: 100, deviceType: 'APP' });
      assert.equal(apps.total, 10);
      await store.mark('admin', [order[0] as string], 'kicked-out');
      await store.deleteSession('admin', order[1] as string);
      const after = await store.listUserPage('admin', 'pager', T0, { offset: 0, limit: 2 });
      assert.deepEqual(
        after.sessions.map((s) => s.tokenHash),
        order.slice(2, 4),
      );
      assert.equal(after.total, 28);
    });

    it('the sweeper removes the entries of ended and expired sessions, a bounded batch per tick', async () => {
      const live = await Promise.all(
        Array.from({ length: 6 }, (_, i) => login(makeRecord({ createdAt: T0 - 100 + i, expiresAt: T0 + HOUR }))),
      );
      const expired = await Promise.all(
        Array.from({ length: 6 }, (_, i) => login(makeRecord({ createdAt: T0 - 50 + i, expiresAt: T0 + 10 }))),
      );
      const gone = await Promise.all(Array.from({ length: 3 }, (_, i) => login(makeRecord({ createdAt: T0 - 20 + i }))));
      await Promise.all(gone.map((h) => redis().del(keys.session('admin', h)))); // records lost, index entries left
      const now = T0 + 11 + 60_001; // past the expiry, and past the grace of a login still being written
      const small = store.indexSweeper({ now: () => now, batch: 4 });
      const first = await small.tick();
      assert.ok(first.examined <= 4, `examined ${first.examined}`);
      // A few buckets a tick: a full pass over every login type's 16 buckets takes a few ticks.
      const sweeper = store.indexSweeper({ now: () => now, batch: 1000 });
      for (let i = 0; i < 24; i++) await sweeper.tick();
      assert.equal(await entries(), live.length);
      assert.deepEqual(await page(0, 20, now), live);
      assert.ok(expired.length > 0);
    });

    if (layout === 'tagged') {
      it('upgrade: entries a release with 16 buckets wrote are listed, removed and moved to their bucket by the sweeper', async () => {
        const made: Array<{ hash: string; at: number }> = [];
        for (let i = 0; i < 24; i++) {
          const at = T0 - 500 + i * 3;
          made.push({ hash: await login(makeRecord({ createdAt: at, expiresAt: T0 + HOUR })), at });
        }
        // As that release left them: in bucket n mod 16.
        const moved = made.filter((m) => keys.previousBucket('admin', m.hash) !== null);
        assert.ok(moved.length > 0);
        for (const m of moved) {
          await redis().zrem(keys.all('admin', m.hash), m.hash);
          await redis().zadd(keys.allBucket('admin', bucketOf(m.hash, PREVIOUS_TAGGED_BUCKETS)), m.at, m.hash);
        }
        const order = byAge(made);
        assert.deepEqual(await page(0, 30), order);
        const ended = moved[0] as { hash: string };
        await store.mark('admin', [ended.hash], 'kicked-out');
        assert.equal(await entries(), made.length - 1);
        const sweeper = store.indexSweeper({ now: () => T0 });
        let total = 0;
        for (let i = 0; i < 24; i++) total += (await sweeper.tick()).moved;
        assert.equal(total, moved.length - 1);
        for (const m of moved.slice(1)) assert.notEqual(await redis().zscore(keys.all('admin', m.hash), m.hash), null);
        assert.deepEqual(
          await page(0, 30),
          order.filter((h) => h !== ended.hash),
        );
      });
    }

    if (layout === 'plain') {
      it('upgrade: the one online index of the previous release is listed, then drained into the buckets by the sweeper', async () => {
        const made: Array<{ hash: string; at: number }> = [];
        for (let i = 0; i < 12; i++) {
          const at = T0 - 500 + i * 3;
          made.push({ hash: await login(makeRecord({ createdAt: at, expiresAt: T0 + HOUR })), at });
        }
        // As the previous release left them: every entry in `all:admin`, none in a bucket; and one entry whose session is gone.
        const legacy = keys.legacyAll('admin') as string;
        assert.equal(legacy, `${prefix}all:admin`);
        for (const m of made.slice(0, 8)) {
          await redis().zrem(keys.all('admin', m.hash), m.hash);
          await redis().zadd(legacy, m.at, m.hash);
        }
        await redis().zadd(legacy, T0 - 10 * HOUR, newHash());
        const order = byAge(made);
        assert.deepEqual(await page(0, 20), order);
        assert.deepEqual(await page(5, 4), order.slice(5, 9));
        // A logout of a session still in the legacy index removes it there.
        await store.deleteSession('admin', order[0] as string);
        assert.equal(await redis().zscore(legacy, order[0] as string), null);
        const report = await store.indexSweeper({ now: () => T0 + 61_000 }).tick();
        assert.equal(report.moved, 7);
        assert.equal(await redis().exists(legacy), 0);
        assert.equal(await entries(), 11);
        assert.deepEqual(await page(0, 20), order.slice(1));
      });
    }

    it(`ends one user's ${END_CHUNK * 2 + 100} sessions in bulk (kick-all, logout-all, replacement): no index entry left`, async () => {
      const n = END_CHUNK * 2 + 100;
      const fill = () => Promise.all(Array.from({ length: n }, (_, i) => login(makeRecord({ userId: 'bulk', createdAt: T0 - n + i }))));
      const user = keys.user('admin', 'bulk');
      const kicked = await fill();
      assert.equal(await store.mark('admin', kicked, 'kicked-out'), n);
      assert.equal(await redis().get(keys.session('admin', kicked[7] as string)), 'k', 'the one-letter tombstone');
      assert.equal(await redis().zcard(user), 0);
      assert.equal(await entries(), 0);
      const removed = await fill();
      assert.deepEqual(new Set(await Promise.all(removed.map((h) => store.deleteSession('admin', h)))), new Set([true]));
      assert.equal(await redis().exists(keys.session('admin', removed[3] as string)), 0);
      assert.equal(await redis().zcard(user), 0);
      assert.equal(await entries(), 0);
      await fill();
      const replacing = newHash();
      const result = await store.create({
        loginType: 'admin',
        tokenHash: replacing,
        record: makeRecord({ userId: 'bulk', createdAt: T0 }),
        retentionMs: 2 * HOUR,
        admission: { kind: 'replace', deviceType: null },
        now: T0,
      });
      assert.equal(result.ended.length, n);
      assert.equal(await redis().zcard(user), 1);
      assert.deepEqual(await page(0, 5), [replacing]);
    });
  });
}
