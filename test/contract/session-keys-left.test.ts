/**
 * What a Redis session leaves behind (issue 30, item 2): the keys and bytes under the prefix after each
 * way a session ends, and none once the tombstone retention (session.tombstone-retention) has passed.
 * One user and one session per case, on a prefix of its own, so every key counted is that session's
 * (its one key, and the user and online indexes while it is live). Refresh-token keys are not the
 * session store's (see the refresh-token registry's tests).
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { type KeyLayoutKind, RedisKeys } from '../../src/adapters/redis/key-layout';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import type { Admission } from '../../src/application/ports/session-store';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { sleep } from './fixture';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;
const TOMBSTONE_MS = 300;

/** Every key under the prefix: its space (s, u, um, all, ...) and MEMORY USAGE. */
async function census(redis: Redis, prefix: string): Promise<{ spaces: string[]; bytes: number }> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  let bytes = 0;
  for (const k of keys) bytes += Number(await redis.memory('USAGE', k, 'SAMPLES', 0)) || 0;
  return { spaces: keys.map((k) => k.slice(prefix.length).split(':')[0] ?? '').sort(), bytes };
}

for (const layout of ['plain', 'tagged'] as KeyLayoutKind[]) {
  describe(`Redis session keys left by each end of a session (${layout} layout)`, function () {
    let redis: Redis;
    let prefix: string;
    let store: RedisSessionStore;

    before(async function () {
      await requireRedis(this);
      redis = createRedisClient(REDIS_URL) as Redis;
    });
    after(async () => redis?.quit());
    beforeEach(() => {
      prefix = testKeyPrefix('keys-left');
      store = new RedisSessionStore(redis, prefix, layout, { tombstoneRetentionMs: TOMBSTONE_MS });
    });
    afterEach(async () => deleteByPrefix(redis, prefix));

    async function login(userId = 'u1', admission: Admission = { kind: 'add' }) {
      const now = Date.now();
      const hash = newHash();
      const record = makeRecord({ userId, createdAt: now, tokenId: hash.slice(0, 32) });
      const r = await store.create({ loginType: 'admin', tokenHash: hash, record, retentionMs: HOUR, admission, now });
      return { hash, ended: r.ended };
    }

    it('a live session: its one key and its two user-index keys and online-index entry (4 keys)', async () => {
      await login();
      const { spaces, bytes } = await census(redis, prefix);
      assert.deepEqual(spaces, ['all', 's', 'u', 'um']);
      assert.ok(bytes > 0);
    });

    it('logout: nothing', async () => {
      const s = await login();
      assert.equal(await store.deleteSession('admin', s.hash), true);
      assert.deepEqual((await census(redis, prefix)).spaces, []);
    });

    for (const [way, state, answer] of [
      ['kickout', 'kicked-out', 'kicked-out'],
      ['end over the cap with LOGOUT', 'logged-out', 'logged-out'],
      ['replacement (marked)', 'replaced', 'replaced'],
    ] as const) {
      it(`${way}: a one-letter tombstone (one key, < 160 bytes), then nothing after the tombstone retention`, async () => {
        const s = await login();
        assert.equal(await store.mark('admin', [s.hash], state), 1);
        const left = await census(redis, prefix);
        assert.deepEqual(left.spaces, ['s']);
        assert.ok(left.bytes < 160, `${left.bytes} bytes`);
        assert.deepEqual(await store.getSession('admin', s.hash, Date.now(), null), { state: answer });
        await sleep(TOMBSTONE_MS + 100);
        assert.deepEqual((await census(redis, prefix)).spaces, []);
        assert.equal(await store.getSession('admin', s.hash, Date.now(), null), null, 'then an unknown token');
      });
    }

    it('replacement by an is-concurrent=false login: the old session leaves its tombstone only, for the retention', async () => {
      const old = await login();
      const before = await census(redis, prefix);
      const next = await login('u1', { kind: 'replace', deviceType: null });
      assert.deepEqual(
        next.ended.map((e) => e.tokenHash),
        [old.hash],
      );
      assert.deepEqual((await census(redis, prefix)).spaces, [...before.spaces, 's'].sort());
      await sleep(TOMBSTONE_MS + 100);
      assert.deepEqual((await census(redis, prefix)).spaces, before.spaces, 'the new session only');
    });

    it('an end over the cap (max 1): the oldest leaves its tombstone only, for the retention', async () => {
      await login();
      const before = await census(redis, prefix);
      const next = await login('u1', { kind: 'cap', max: 1, state: 'logged-out' });
      assert.equal(next.ended.length, 1);
      assert.deepEqual((await census(redis, prefix)).spaces, [...before.spaces, 's'].sort());
      await sleep(TOMBSTONE_MS + 100);
      assert.deepEqual((await census(redis, prefix)).spaces, before.spaces);
    });

    it('idle or expired: its keys stay only as long as its retention (the session key and indexes expire with it)', async () => {
      const s = await login();
      const keys = new RedisKeys(prefix, layout);
      for (const key of [keys.session('admin', s.hash), keys.user('admin', 'u1'), keys.userMeta('admin', 'u1')]) {
        const ttl = await redis.pttl(key);
        assert.ok(ttl > HOUR - 5_000 && ttl <= HOUR, `${key} ttl ${ttl}`);
      }
      assert.equal((await store.getSession('admin', s.hash, Date.now() + 2 * HOUR, 60_000))?.state, 'active');
    });
  });
}
