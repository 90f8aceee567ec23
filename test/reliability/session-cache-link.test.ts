/**
 * The local session cache on a real Redis, two caches in this process standing for two instances
 * (each with its own main client and tracking link): a write through one is seen by the other
 * before the writer's call returns (the fence), and a tracking link that is killed or goes silent
 * flushes the cache, bypasses it, and comes back by itself. Skipped loudly without Redis.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { createSessionCache, type SessionCache } from '../../src/adapters/redis/session-cache/create-session-cache';
import { FencedSessionStore } from '../../src/adapters/redis/session-cache/write-fence';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import type { SessionStore } from '../../src/application/ports/session-store';
import { systemClock } from '../../src/main/infrastructure';
import { makeRecord } from '../contract/session-store.contract';
import { cachedSessionStore, waitForTracking } from '../support/session-cache';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The end of the current I/O turn (what a cache hit waits for before it answers). */
const turn = () => new Promise((r) => setImmediate(r));

/** The CLIENT LIST ids of connections whose name is `name`. */
async function clientIds(redis: Redis, name: string): Promise<string[]> {
  const list = String(await redis.client('LIST'));
  return list
    .split('\n')
    .filter((line) => line.includes(` name=${name} `))
    .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1] ?? '')
    .filter((id) => id !== '');
}

describe('local session cache on Redis: coherence between two caches, and the tracking link', function () {
  this.timeout(60_000);
  const prefix = testKeyPrefix('cache-link');
  const clients: Redis[] = [];
  type Instance = SessionCache & { readonly writer: SessionStore };
  const caches: Instance[] = [];
  let admin: Redis;

  before(async function () {
    await requireRedis(this);
    admin = createRedisClient(REDIS_URL);
  });

  after(async () => {
    for (const c of caches) await c.store.close();
    for (const c of clients) await c.quit();
    if (admin !== undefined) {
      await deleteByPrefix(admin, prefix);
      await admin.quit();
    }
  });

  async function instance(opts: Parameters<typeof cachedSessionStore>[4] = {}): Promise<Instance> {
    const client = createRedisClient(REDIS_URL);
    clients.push(client);
    const cache = await cachedSessionStore(client, REDIS_URL, prefix, systemClock, opts);
    caches.push(cache);
    return cache;
  }

  async function login(cache: Instance, userId = 'u1'): Promise<string> {
    const hash = randomBytes(32).toString('hex');
    const now = Date.now();
    await cache.writer.create({
      loginType: 'admin',
      tokenHash: hash,
      record: makeRecord({ userId, createdAt: now }),
      retentionMs: 600_000,
      admission: { kind: 'add' },
      now,
    });
    return hash;
  }

  /** Reads until the other cache holds the session (a miss, then cached). */
  async function warm(cache: Instance, hash: string): Promise<void> {
    assert.equal((await cache.store.getSession('admin', hash, Date.now(), null))?.state, 'active');
    assert.ok(cache.store.holds('admin', hash), 'cached after the read');
  }

  it(
    '1000 logouts through one cache: the other has dropped the session by the end of the I/O ' +
      'turn in which the writer is told "done"; 0 stale answers',
    async () => {
      const [one, two] = [await instance(), await instance()];
      let stale = 0;
      let afterReturn = 0;
      let afterTurn = 0;
      const leadsUs: number[] = [];
      let droppedAt = 0;
      two.metrics.add({
        sessionCacheLookup: () => undefined,
        sessionCacheFlushed: () => undefined,
        sessionCacheTracking: () => undefined,
        sessionCacheInvalidated: () => (droppedAt = performance.now()),
      });
      for (let i = 0; i < 1000; i++) {
        const hash = await login(one);
        await warm(two, hash);
        assert.equal(await one.writer.deleteSession('admin', hash), true);
        const doneAt = performance.now();
        if (two.store.holds('admin', hash)) afterReturn++;
        else leadsUs.push((doneAt - droppedAt) * 1000);
        await turn();
        if (two.store.holds('admin', hash)) afterTurn++;
        if ((await two.store.getSession('admin', hash, Date.now(), null)) !== null) stale++;
      }
      leadsUs.sort((a, b) => a - b);
      console.log(
        `      logout -> other cache: ${stale} stale of 1000; the invalidation was processed before ` +
          `the writer's return in ${leadsUs.length} ` +
          (`(lead min ${leadsUs[0]?.toFixed(0)} µs, median ${leadsUs[leadsUs.length >> 1]?.toFixed(0)} ` +
            `µs), later in the same I/O turn in ${afterReturn}, after it in ${afterTurn}`),
      );
      assert.equal(afterTurn, 0, 'processed within the I/O turn of the fence reply');
      assert.equal(stale, 0);
    },
  );

  it(
    'without the fence the writer is usually told "done" before the invalidation reached the ' + 'other cache (why the fence exists)',
    async () => {
      const [one, two] = [await instance(), await instance()];
      const unfenced = new RedisSessionStore(clients[clients.length - 2] as Redis, prefix);
      let late = 0;
      for (let i = 0; i < 200; i++) {
        const hash = await login(one);
        await warm(two, hash);
        await unfenced.deleteSession('admin', hash);
        if (two.store.holds('admin', hash)) late++;
        await sleep(0);
        assert.ok(!two.store.holds('admin', hash) || (await two.store.getSession('admin', hash, Date.now(), null)) === null);
      }
      console.log(`      without the fence: the other cache still held the session at the writer's return in ${late} of 200 writes`);
    },
  );

  it(
    'kickout (mark), role change (update) and replacement (create with replaceOthers) through ' + 'one cache are seen by the other at once',
    async () => {
      const [one, two] = [await instance(), await instance()];
      const kicked = await login(one, 'k1');
      await warm(two, kicked);
      assert.equal(await one.writer.mark('admin', [kicked], 'kicked-out'), 1);
      await turn();
      assert.ok(!two.store.holds('admin', kicked));
      assert.deepEqual(await two.store.getSession('admin', kicked, Date.now(), null), { state: 'kicked-out' });

      const changed = await login(one, 'r1');
      await warm(two, changed);
      const now = Date.now();
      const record = {
        ...makeRecord({ userId: 'r1', createdAt: now }),
        principal: { userId: 'r1', username: 'r1', roles: ['auditor'], permissions: ['audit:read'] },
      };
      assert.equal(await one.writer.update('admin', changed, record, 600_000), true);
      await turn();
      assert.ok(!two.store.holds('admin', changed));
      const got = await two.store.getSession('admin', changed, Date.now(), null);
      assert.deepEqual(got?.state === 'active' && got.record.principal.roles, ['auditor']);

      const old = await login(one, 'p1');
      await warm(two, old);
      const fresh = randomBytes(32).toString('hex');
      const created = await one.writer.create({
        loginType: 'admin',
        tokenHash: fresh,
        record: makeRecord({ userId: 'p1', createdAt: now }),
        retentionMs: 600_000,
        admission: { kind: 'replace', deviceType: null },
        now,
      });
      assert.equal(created.ended.length, 1);
      await turn();
      assert.ok(!two.store.holds('admin', old));
      assert.deepEqual(await two.store.getSession('admin', old, Date.now(), null), { state: 'replaced' });
    },
  );

  for (const role of ['reader', 'invalidations'] as const) {
    it(`CLIENT KILL of the ${role} connection: flushed and bypassed at once, tracking again within 2 s, coherent after`, async () => {
      const [one, two] = [await instance(), await instance()];
      const hash = await login(one);
      await warm(two, hash);
      const ids = await clientIds(admin, `${two.linkName}:${role}`);
      assert.equal(ids.length, 1, `one ${role} connection named ${two.linkName}:${role}`);
      await admin.client('KILL', 'ID', ids[0] as string);
      // The close reaches the process before anything the killing client does next.
      await sleep(0);
      assert.equal(two.store.tracking, false, 'bypassed');
      assert.ok(!two.store.holds('admin', hash), 'flushed');
      await waitForTracking(two.store, 2_000);
      await warm(two, hash);
      await one.writer.deleteSession('admin', hash);
      assert.equal(await two.store.getSession('admin', hash, Date.now(), null), null);
    });
  }

  it('a tracking link that cannot be set up leaves the cache bypassed: reads and writes go to Redis and stay correct', async () => {
    const client = createRedisClient(REDIS_URL);
    clients.push(client);
    const unreachable = () => createRedisClient('redis://127.0.0.1:1', { connectTimeoutMs: 200 });
    const cache = createSessionCache({
      inner: new RedisSessionStore(client, prefix),
      connect: unreachable,
      keyPrefix: prefix,
      clock: systemClock,
      log: silentLogger,
      options: { maxEntries: 10, ttlMs: 60_000 },
    });
    caches.push({ ...cache, writer: cache.store });
    const writer = new FencedSessionStore(cache.store, () => client.ping());
    const hash = randomBytes(32).toString('hex');
    const now = Date.now();
    await writer.create({
      loginType: 'admin',
      tokenHash: hash,
      record: makeRecord({ createdAt: now }),
      retentionMs: 600_000,
      admission: { kind: 'add' },
      now,
    });
    await sleep(300);
    assert.equal(cache.store.tracking, false);
    assert.equal((await cache.store.getSession('admin', hash, Date.now(), null))?.state, 'active');
    assert.ok(!cache.store.holds('admin', hash), 'nothing cached while bypassed');
    assert.equal(await writer.deleteSession('admin', hash), true);
    assert.equal(await cache.store.getSession('admin', hash, Date.now(), null), null);
  });

  it('a tracking link whose invalidations stop arriving (a silent link) fails its heartbeat: flushed, then rebuilt', async () => {
    const made: Redis[] = [];
    const cache = await instance({
      heartbeatMs: 100,
      probeTimeoutMs: 300,
      connect: () => {
        const c = createRedisClient(REDIS_URL);
        made.push(c);
        return c;
      },
    });
    const hash = await login(cache);
    await warm(cache, hash);
    // Stop reading the invalidations connection's socket: the server still thinks all is well.
    made[1]?.stream.pause();
    const started = Date.now();
    while (cache.store.tracking && Date.now() - started < 3_000) await sleep(20);
    assert.equal(cache.store.tracking, false, 'the heartbeat noticed');
    assert.ok(!cache.store.holds('admin', hash));
    await waitForTracking(cache.store, 3_000);
  });
});
