/**
 * Sessions the previous release wrote (record JSON in `s:<type>:<hash>`, last-active time in `a`, the
 * 16-hex token id in `t`, a tombstone as its state's name) keep working on the layout of one key per
 * session (docs/sessions.md, "Session keys in Redis"): reads, touches, listings, token-id lookups,
 * patch, update, ends and removal, beside sessions of the new layout. Run on the plain and the tagged
 * layout on one server (session-layout-upgrade.test.ts, the tagged one slot-checked) and on a real
 * Redis Cluster (cluster-stores.test.ts).
 */
import assert from 'node:assert/strict';
import { RedisKeys, type KeyLayoutKind } from '../../src/adapters/redis/key-layout';
import type { RedisClient } from '../../src/adapters/redis/redis-client';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import type { SessionRecord } from '../../src/domain/session';
import { deleteByPrefix, testKeyPrefix } from '../support/services';
import { listAll } from '../support/online-page';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;
const TOMBSTONE_MS = 5_000;

/**
 * The suite on `layout`: `clients()` gives the client the store runs on and one that writes the previous
 * release's keys straight (single-key commands only: on a cluster they route by key).
 */
export function describeSessionLayoutUpgrade(
  label: string,
  layout: KeyLayoutKind,
  clients: () => { readonly store: RedisClient; readonly raw: RedisClient } | undefined,
): void {
  describe(`sessions of the previous release on the layout of one key per session${label}`, function () {
    let raw: RedisClient;
    let prefix: string;
    let keys: RedisKeys;
    let store: RedisSessionStore;

    beforeEach(function () {
      const c = clients();
      if (c === undefined) throw new Error('redis clients not ready');
      raw = c.raw;
      prefix = testKeyPrefix('upgrade-layout');
      keys = new RedisKeys(prefix, layout);
      store = new RedisSessionStore(c.store, prefix, layout, { tombstoneRetentionMs: TOMBSTONE_MS });
    });
    afterEach(async () => deleteByPrefix(raw, prefix));

    /** A session as the previous release left it: s (JSON), a, t, and its index entries. */
    async function legacy(opts: { userId?: string; lastActive?: number; value?: string } = {}) {
      const now = Date.now();
      const hash = newHash();
      const userId = opts.userId ?? 'u1';
      const record: SessionRecord = makeRecord({ userId, createdAt: now - 10_000, tokenId: hash.slice(0, 16) });
      await raw.set(keys.legacySession('admin', hash), opts.value ?? JSON.stringify(record), 'PX', HOUR);
      await raw.set(keys.lastActive('admin', hash), String(opts.lastActive ?? now - 5_000), 'PX', HOUR);
      await raw.set(keys.tokenId('admin', record.tokenId), hash, 'PX', HOUR);
      await raw.zadd(keys.user('admin', userId), now + HOUR, hash);
      await raw.hset(keys.userMeta('admin', userId), hash, `1|${record.createdAt}|${record.expiresAt}||DEF`, '#seq', '1');
      await raw.zadd(keys.all('admin', hash), record.createdAt, hash);
      return { hash, record, tokenId: record.tokenId };
    }

    /** A session of the new layout, written as a login does (its token id is its key id). */
    async function fresh(userId = 'u1') {
      const now = Date.now();
      const hash = newHash();
      const record = makeRecord({ userId, createdAt: now, tokenId: hash.slice(0, 32) });
      await store.create({ loginType: 'admin', tokenHash: hash, record, retentionMs: HOUR, admission: { kind: 'add' }, now });
      return { hash, record };
    }

    /** How many of `names` exist (one EXISTS each: on a cluster they are in other slots). */
    const existing = async (...names: string[]): Promise<number> =>
      (await Promise.all(names.map((n) => raw.exists(n)))).reduce((a, b) => a + b, 0);
    const legacyKeysLeft = async (hash: string, tokenId: string): Promise<number> =>
      existing(keys.legacySession('admin', hash), keys.lastActive('admin', hash), keys.tokenId('admin', tokenId));

    it('reads it, with and without an idle limit, alone and in one tick with sessions of the new layout', async () => {
      const last = Date.now() - 5_000;
      const old = await legacy({ lastActive: last });
      const young = await fresh();
      const now = Date.now();
      const [a, b] = await Promise.all([store.getSession('admin', old.hash, now, null), store.getSession('admin', young.hash, now, null)]);
      assert.deepEqual(a, { state: 'active', record: old.record, lastActiveAt: last });
      assert.equal(b?.state, 'active');
      const [c, d] = await Promise.all([store.getSession('admin', old.hash, now, HOUR), store.getSession('admin', young.hash, now, HOUR)]);
      assert.equal(c?.state === 'active' && c.lastActiveAt, last, 'the last-active time before this use');
      assert.equal(d?.state, 'active');
      assert.equal(await raw.get(keys.lastActive('admin', old.hash)), String(now).padStart(13, '0'), 'touched in its own key');
      assert.equal(await raw.exists(keys.session('admin', old.hash)), 0, 'not moved');
      const again = await store.getSession('admin', old.hash, now + 1, HOUR);
      assert.equal(again?.state === 'active' && again.lastActiveAt, now);
    });

    it('an idle one is not touched (it stays frozen)', async () => {
      const old = await legacy({ lastActive: Date.now() - 2 * HOUR });
      const got = await store.getSession('admin', old.hash, Date.now(), HOUR);
      assert.ok(got?.state === 'active' && got.lastActiveAt < Date.now() - HOUR);
      assert.ok(Number(await raw.get(keys.lastActive('admin', old.hash))) < Date.now() - HOUR);
    });

    it('is found by its 16-hex token id and listed with the new ones', async () => {
      const old = await legacy();
      const young = await fresh();
      assert.equal(await store.findByTokenId('admin', old.tokenId), old.hash);
      assert.equal(await store.findByTokenId('admin', young.record.tokenId), young.hash);
      const now = Date.now();
      const mine = await store.listByUser('admin', 'u1', now);
      assert.deepEqual(mine.map((s) => s.tokenHash).sort(), [old.hash, young.hash].sort());
      assert.equal(mine.find((s) => s.tokenHash === old.hash)?.lastActiveAt, Number(await raw.get(keys.lastActive('admin', old.hash))));
      const online = await listAll(store, 'admin', now, 10);
      assert.deepEqual(online.map((s) => s.tokenHash).sort(), [old.hash, young.hash].sort());
    });

    it('patch and update write its record in place (JSON), keeping it readable', async () => {
      const old = await legacy();
      const patched = await store.patch('admin', old.hash, () => ({ requiredActions: ['update-password'] }));
      assert.deepEqual(patched?.requiredActions, ['update-password']);
      const stored = JSON.parse((await raw.get(keys.legacySession('admin', old.hash))) ?? 'null') as SessionRecord;
      assert.deepEqual(stored.requiredActions, ['update-password']);
      const next = { ...old.record, attrs: { family: 'f2' } };
      assert.equal(await store.update('admin', old.hash, next, 2 * HOUR), true);
      const got = await store.getSession('admin', old.hash, Date.now(), null);
      assert.deepEqual(got?.state === 'active' && got.record, next);
      assert.ok((await raw.pttl(keys.legacySession('admin', old.hash))) > HOUR);
      assert.equal(await store.findByTokenId('admin', old.tokenId), old.hash);
    });

    it('a kickout leaves a one-letter tombstone kept for the tombstone retention, and removes its other keys', async () => {
      const old = await legacy();
      assert.equal(await store.mark('admin', [old.hash], 'kicked-out'), 1);
      assert.deepEqual(await store.getSession('admin', old.hash, Date.now(), null), { state: 'kicked-out' });
      assert.equal(await raw.get(keys.legacySession('admin', old.hash)), 'k');
      const ttl = await raw.pttl(keys.legacySession('admin', old.hash));
      assert.ok(ttl > 0 && ttl <= TOMBSTONE_MS, `ttl ${ttl}`);
      assert.equal(await existing(keys.lastActive('admin', old.hash), keys.tokenId('admin', old.tokenId)), 0);
      assert.equal(await raw.zscore(keys.user('admin', 'u1'), old.hash), null);
      assert.equal(await store.findByTokenId('admin', old.tokenId), null);
    });

    it('its tombstones of the previous format still answer', async () => {
      for (const state of ['kicked-out', 'replaced', 'logged-out'] as const) {
        const old = await legacy({ value: state });
        assert.deepEqual(await store.getSession('admin', old.hash, Date.now(), HOUR), { state });
        assert.deepEqual(await store.getSession('admin', old.hash, Date.now(), null), { state });
      }
    });

    it('a logout removes it, its token id and its index entries', async () => {
      const old = await legacy();
      assert.equal(await store.deleteSession('admin', old.hash), true);
      assert.equal(await legacyKeysLeft(old.hash, old.tokenId), 0);
      assert.equal(await store.getSession('admin', old.hash, Date.now(), null), null);
      assert.deepEqual(await store.listByUser('admin', 'u1', Date.now()), []);
    });

    it('a replacing login (is-concurrent=false) ends it as replaced; a cap counts it', async () => {
      const old = await legacy();
      const now = Date.now();
      const hash = newHash();
      const record = makeRecord({ userId: 'u1', createdAt: now, tokenId: hash.slice(0, 32) });
      const r = await store.create({
        loginType: 'admin',
        tokenHash: hash,
        record,
        retentionMs: HOUR,
        admission: { kind: 'replace', deviceType: null },
        now,
      });
      assert.deepEqual(
        r.ended.map((e) => [e.tokenHash, e.record?.tokenId]),
        [[old.hash, old.tokenId]],
      );
      assert.deepEqual(await store.getSession('admin', old.hash, now, null), { state: 'replaced' });
      const capped = await legacy({ userId: 'u2' });
      const h2 = newHash();
      const c = await store.create({
        loginType: 'admin',
        tokenHash: h2,
        record: makeRecord({ userId: 'u2', createdAt: now, tokenId: h2.slice(0, 32) }),
        retentionMs: HOUR,
        admission: { kind: 'cap', max: 1, state: 'logged-out' },
        now,
      });
      assert.deepEqual(
        c.ended.map((e) => e.tokenHash),
        [capped.hash],
      );
      assert.deepEqual(await store.getSession('admin', capped.hash, now, null), { state: 'logged-out' });
    });
  });
}
