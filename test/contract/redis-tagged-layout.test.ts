/**
 * The cluster (tagged) key layout, checked on the standalone Redis: every store contract passes
 * with it, and no command the stores send spans two slots (a cluster would refuse it with
 * CROSSSLOT). The real cluster runs are in cluster-stores.test.ts.
 */
import assert from 'node:assert/strict';
import calculateSlot from 'cluster-key-slot';
import { ALL_BUCKETS, RedisKeys } from '../../src/adapters/redis/key-layout';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { FakeClock } from '../support/fake-clock';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { slotCheckedClient, type SlotCheckedClient } from '../support/slot-check';
import { describeRedisStoreContracts } from './redis-contracts';
import { makeRecord, newHash } from './session-store.contract';
import type { LoginType } from '../../src/domain/login-type';
import { listAll } from '../support/online-page';

describe('Redis key layout: tagged (cluster) on one server', function () {
  let checked: SlotCheckedClient | undefined;
  let twin: SlotCheckedClient | undefined;

  before(async function () {
    await requireRedis(this);
    checked = slotCheckedClient(REDIS_URL);
    twin = slotCheckedClient(REDIS_URL);
  });

  after(async () => {
    if (checked !== undefined) {
      assert.deepEqual(checked.violations, [], 'commands spanning several slots');
      assert.ok(checked.multiKeyCommands() > 50, `the checker saw ${checked.multiKeyCommands()} multi-key commands`);
      await checked.client.quit();
    }
    if (twin !== undefined) {
      assert.deepEqual(twin.violations, [], 'commands spanning several slots (the twin store)');
      await twin.client.quit();
    }
  });

  describeRedisStoreContracts({
    label: ' (tagged layout, slot-checked)',
    layout: 'tagged',
    client: () => checked?.client,
    twinClient: () => twin?.client,
    health: () => {
      const client = createRedisClient(REDIS_URL);
      return { client, store: new RedisStoreHealth(client) };
    },
  });

  describe('names', () => {
    const keys = new RedisKeys('p:', 'tagged');

    it('tags the part that decides the slot, and a session record shares its slot with its last-active time', () => {
      assert.equal(keys.session('admin', 'h1'), 'p:s:{admin:h1}');
      assert.equal(keys.lastActive('admin', 'h1'), 'p:a:{admin:h1}');
      assert.equal(keys.user('admin', 'u1'), 'p:u:{admin:u1}');
      assert.equal(keys.tokenId('admin', 't1'), 'p:t:{admin:t1}');
      assert.equal(keys.keyValue('rt:admin:abc'), 'p:kv:rt:{admin:abc}');
      assert.equal(keys.keyValue('plain'), 'p:kv:{plain}');
      assert.equal(keys.list('x'), 'p:l:{x}');
      assert.equal(keys.rateLog('login:ip:::1'), 'p:rl:{login:ip:::1}');
      assert.equal(calculateSlot(keys.session('admin', 'h1')), calculateSlot(keys.lastActive('admin', 'h1')));
      assert.equal(calculateSlot(keys.keyValue('rt:admin:abc')), calculateSlot(keys.keyValue('rtused:admin:abc')));
    });

    it("names a session by the first 32 hex digits of its hash; the previous layout's record and last-active share a slot", () => {
      const hash = newHash();
      assert.equal(keys.session('admin', hash), `p:s:{admin:${hash.slice(0, 32)}}`);
      assert.equal(keys.legacySession('admin', hash), `p:s:{admin:${hash}}`);
      assert.equal(calculateSlot(keys.legacySession('admin', hash)), calculateSlot(keys.lastActive('admin', hash)));
      assert.equal(keys.sessionKeyOfLegacy(keys.legacySession('admin', hash)), keys.session('admin', hash));
      assert.equal(keys.sessionKeyOfLegacy(keys.session('admin', hash)), null, 'a key of the new layout is itself');
      assert.equal(keys.sessionKeyOfLegacy(keys.user('admin', 'u1')), null);
      const plain = new RedisKeys('p:');
      assert.equal(plain.session('admin', hash), `p:s:admin:${hash.slice(0, 32)}`);
      assert.equal(plain.sessionKeyOfLegacy(plain.legacySession('admin', hash)), plain.session('admin', hash));
      assert.equal(plain.sessionKeyOfLegacy(`q:s:admin:${hash}`), null, 'another prefix');
    });

    it('escapes braces and % inside a tag, so no user-chosen id moves a key to another slot', () => {
      assert.equal(keys.user('web', 'a}b{c%'), 'p:u:{web:a%7Db%7Bc%25}');
      assert.equal(keys.keyValue('nonce:k:}x'), 'p:kv:nonce:{k:%7Dx}');
      assert.notEqual(calculateSlot(keys.keyValue('nonce:k:}x')), calculateSlot(keys.keyValue('nonce:k:}y')) === -1 ? -2 : -3);
    });

    it('refuses a key prefix with a brace (every key would share one slot)', () => {
      assert.throws(() => new RedisKeys('a{b}:', 'tagged'), /must not contain \{ or \}/);
      assert.doesNotThrow(() => new RedisKeys('a{b}:', 'plain'));
    });

    it('spreads the online index over its buckets, and the buckets over many slots', () => {
      const buckets = new Set<string>();
      for (let i = 0; i < 2000; i++) buckets.add(keys.all('admin', newHash()));
      assert.equal(buckets.size, ALL_BUCKETS);
      assert.equal(new Set([...buckets].map((b) => calculateSlot(b))).size, ALL_BUCKETS);
    });

    it('keeps the plain layout names of earlier releases', () => {
      const plain = new RedisKeys('p:');
      assert.equal(plain.legacySession('admin', 'h1'), 'p:s:admin:h1');
      assert.equal(plain.lastActive('admin', 'h1'), 'p:a:admin:h1');
      // The online index is bucketed in both layouts now; the one index of earlier releases is still named (and drained).
      assert.match(plain.all('admin', 'h1'), /^p:all:admin:\d+$/);
      assert.equal(plain.legacyAll('admin'), 'p:all:admin');
      assert.equal(new RedisKeys('p:', 'tagged').legacyAll('admin'), null);
      assert.equal(plain.keyValue('rt:admin:abc'), 'p:kv:rt:admin:abc');
    });
  });

  describe('multi-step operations', () => {
    const prefix = testKeyPrefix('tagged');
    after(async () => {
      if (checked) await deleteByPrefix(checked.client, prefix);
    });

    /** A login type of its own (not one the apps use), so listAll sees only this test's sessions. */
    const MERGE = 'merge' as LoginType;
    it('listAll merges the buckets oldest first (createdAt, then hash) and fills the limit past dead entries', async () => {
      const store = new RedisSessionStore(checked!.client, prefix, 'tagged');
      const clock = new FakeClock(Date.now());
      const made: Array<{ hash: string; createdAt: number }> = [];
      for (let i = 0; i < 40; i++) {
        const hash = newHash();
        const createdAt = clock.now() - 1000 * (i % 7);
        await store.create({
          loginType: MERGE,
          tokenHash: hash,
          record: makeRecord({ loginType: MERGE, userId: `u${i}`, createdAt }),
          retentionMs: 3_600_000,
          admission: { kind: 'add' },
          now: clock.now(),
        });
        made.push({ hash, createdAt });
      }
      const dead = made.slice(0, 10).map((m) => m.hash);
      for (const h of dead.slice(0, 5)) await store.deleteSession(MERGE, h);
      await store.mark(MERGE, dead.slice(5), 'kicked-out');
      const live = made.filter((m) => !dead.includes(m.hash)).sort((a, b) => a.createdAt - b.createdAt || (a.hash < b.hash ? -1 : 1));
      const listed = await listAll(store, MERGE, clock.now(), 25);
      assert.deepEqual(
        listed.map((s) => s.tokenHash),
        live.slice(0, 25).map((m) => m.hash),
      );
      assert.equal((await listAll(store, MERGE, clock.now(), 100)).length, 30);
    });

    it('setMany over several subjects writes them all; one subject stays one script', async () => {
      const kv = new RedisKeyValueStore(checked!.client, prefix, 'tagged');
      await kv.setMany([
        { key: 'rtfam:admin:f1', value: 'F', ttlMs: 60_000 },
        { key: 'rtacc:admin:a1', value: 'A', ttlMs: 60_000 },
        { key: 'rt:admin:h1', value: 'R', ttlMs: 60_000 },
      ]);
      assert.deepEqual(await Promise.all(['rtfam:admin:f1', 'rtacc:admin:a1', 'rt:admin:h1'].map((k) => kv.get(k))), ['F', 'A', 'R']);
      assert.equal(await kv.deleteIfEqualsAndSet('rt:admin:h1', 'R', { key: 'rtused:admin:h1', value: 'U', ttlMs: 60_000 }), true);
      assert.equal(await kv.get('rtused:admin:h1'), 'U');
      assert.equal(await kv.deleteIfEqualsAndSet('rt:admin:h1', 'R', { key: 'rtused:admin:h1', value: 'V', ttlMs: 60_000 }), false);
      assert.equal(await kv.deleteIfEqualsAndSet('a:x', 'nope', { key: 'b:y', value: 'V', ttlMs: 60_000 }), false);
      await kv.set('a:x', '1', null);
      assert.equal(await kv.deleteIfEqualsAndSet('a:x', '1', { key: 'b:y', value: 'V', ttlMs: 60_000 }), true);
      assert.equal(await kv.get('b:y'), 'V');
    });
  });
});
