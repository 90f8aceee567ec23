/**
 * The key counting of `npm run bench:scale` (bench/scale/keys.ts), on a redis-server of its own
 * started by the bench's own starter: the figures the bench reports (keys and bytes per space, the
 * largest key, what a session leaves) are only as good as these.
 */
import assert from 'node:assert/strict';
import { census, countBySpace, dropPrefix, keysUnder, memoryUsage, sessionSide, spaceOf, ttls } from '../../bench/scale/keys';
import { startStandalone, type RedisDeployment } from '../../bench/scale/redis';
import { requireRedisServer } from '../support/redis-server';

describe('bench:scale key counting', function () {
  this.timeout(30_000);

  describe('spaceOf: the layout name of a key, plain or tagged', () => {
    const cases: Array<[string, string | null]> = [
      ['p:s:admin:ab12', 's'],
      ['p:s:{admin:ab12}', 's'],
      ['p:all:admin', 'all'],
      ['p:all:{admin:7}', 'all'],
      ['p:kv:rt:admin:ff00', 'kv:rt'],
      ['p:kv:rtfam:{admin:1795566265859.2ad6}', 'kv:rtfam'],
      ['p:kv:{solo}', 'kv'],
      ['p:rl:admin:login:IP:10.0.0.1', 'rl'],
      ['q:s:admin:ab12', null],
    ];
    for (const [key, space] of cases) it(`${key} -> ${space}`, () => assert.equal(spaceOf(key, 'p:'), space));

    it('a login-side key (rate-limit log, audit stream) is not a session key', () => {
      assert.equal(sessionSide('p:rl:admin:login:IP:10.0.0.1', 'p:'), false);
      assert.equal(sessionSide('p:ev:{admin:login}', 'p:'), false);
      assert.equal(sessionSide('p:kv:rtacc:admin:ab', 'p:'), true);
      assert.equal(sessionSide('q:s:admin:ab', 'p:'), false);
    });
  });

  describe('on a redis-server', () => {
    let redis: RedisDeployment | undefined;
    const masters = () => (redis as RedisDeployment).masters;
    const m = () => masters()[0] as NonNullable<ReturnType<typeof masters>[0]>;

    before(async function () {
      await requireRedisServer(this);
      redis = await startStandalone();
      const p = m().pipeline();
      // 2,500 session records: more than one SCAN page; a sorted set of 5,000 members; a key-value key with a TTL.
      for (let i = 0; i < 2500; i++) p.set(`p:s:admin:${i}`, 'x'.repeat(100));
      for (let i = 0; i < 5000; i++) p.zadd('p:all:admin', i, `member-${i}`);
      p.set('p:kv:rt:admin:h', '{}', 'PX', 60_000);
      p.set('p:rl:admin:login:IP:1', '1');
      p.set('other:s:admin:0', 'not under the prefix');
      await p.exec();
    });
    after(async () => redis?.stop());

    it('keysUnder finds every key under the prefix and no other, across SCAN pages', async () => {
      const keys = await keysUnder(masters(), 'p:');
      assert.equal(keys.size, 2500 + 3);
      assert.ok(!keys.has('other:s:admin:0'));
      assert.deepEqual(countBySpace(keys.keys(), 'p:'), { s: 2500, all: 1, 'kv:rt': 1, rl: 1 });
    });

    it('census: bytes by space add up to MEMORY USAGE of each key, the sorted set is the largest', async () => {
      const c = await census(masters(), 'p:', 2);
      const usage = await memoryUsage(masters(), await keysUnder(masters(), 'p:'));
      const total = [...usage.values()].reduce((a, b) => a + b, 0);
      assert.equal(c.keys, 2503);
      assert.equal(c.bytes, total);
      assert.equal(
        Object.values(c.bySpace).reduce((a, s) => a + s.bytes, 0),
        total,
      );
      assert.equal(c.bySpace.s?.keys, 2500);
      assert.equal(c.largest[0]?.key, 'all:admin');
      assert.equal(c.largest[0]?.bytes, usage.get('p:all:admin'));
      assert.ok((c.largest[0]?.bytes ?? 0) > 5000 * 8, 'every member counted (SAMPLES 0)');
      assert.equal(c.largest.length, 2);
    });

    it('ttls: ms left, -1 without expiry, -2 once gone', async () => {
      const keys = new Map([
        ['p:kv:rt:admin:h', 0],
        ['p:s:admin:0', 0],
        ['p:gone', 0],
      ]);
      const t = await ttls(masters(), keys);
      assert.ok((t.get('p:kv:rt:admin:h') ?? 0) > 50_000);
      assert.equal(t.get('p:s:admin:0'), -1);
      assert.equal(t.get('p:gone'), -2);
    });

    it('dropPrefix removes the prefix and nothing else', async () => {
      assert.equal(await dropPrefix(masters(), 'p:'), 2503);
      assert.equal((await keysUnder(masters(), 'p:')).size, 0);
      assert.equal(await m().get('other:s:admin:0'), 'not under the prefix');
    });
  });
});
