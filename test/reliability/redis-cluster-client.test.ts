/**
 * The production Redis Cluster client (createRedisClient in cluster mode: ioredis' Cluster with
 * auto-pipelining) on a real 3-master / 3-replica cluster: keys over many slots land on every
 * master, a store's Lua script runs, a MOVED after a reshard is followed, traffic during a reshard
 * sees no error, a call made while the client is still starting waits for it, and a command to a
 * slot without a master is rejected instead of hanging. Skipped loudly without redis-server /
 * redis-cli (fails under CI=true).
 */
import type { Cluster } from 'ioredis';
import assert from 'node:assert/strict';
import { readyWithin, withReadyWait } from '../../src/adapters/redis/ready-wait';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisRateLimitStore } from '../../src/adapters/redis/rate-limit-store';
import { type ClusterNode, RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'cluster-client-pw';

/** Settles `p`, reporting how long it took and whether it failed (never throws). */
async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: Error }> {
  const start = Date.now();
  try {
    return { ms: Date.now() - start, value: await p };
  } catch (e) {
    return { ms: Date.now() - start, error: e as Error };
  }
}

/** The master serving each key's slot. */
async function ownersOf(cluster: RedisCluster, keys: readonly string[]): Promise<ClusterNode[]> {
  const masters = await cluster.masters();
  return (await cluster.slotsOf(keys)).map((slot) => {
    const master = masters.find((m) => m.slots.some(([a, b]) => slot >= a && slot <= b));
    assert.ok(master, `slot ${slot} has a master`);
    return master;
  });
}

describe('Redis Cluster client: routing, MOVED / ASK, resharding', function () {
  this.timeout(60_000);
  let cluster: RedisCluster | undefined;
  let client: Cluster | undefined;

  before(async function () {
    await requireRedisCluster(this);
    cluster = await RedisCluster.start({ password: PASSWORD });
    client = createRedisClient({ mode: 'cluster', nodes: cluster.seeds.slice(0, 1), password: PASSWORD }, { commandTimeoutMs: 2000 });
    await readyWithin(client, 5000);
  });
  after(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  it('discovers the whole cluster from one seed; keys over many slots are written and read back, on every master', async () => {
    assert.ok(client && cluster);
    const prefix = testKeyPrefix('cluster-client');
    const keys = Array.from({ length: 500 }, (_, i) => `${prefix}${i}`);
    await Promise.all(keys.map((k, i) => client!.set(k, String(i))));
    assert.deepEqual(
      await Promise.all(keys.map((k) => client!.get(k))),
      keys.map((_, i) => String(i)),
    );
    const perMaster = [...(await cluster.keysPerMaster(prefix)).values()];
    assert.equal(perMaster.length, 3);
    assert.ok(
      perMaster.every((n) => n > 0),
      `keys on every master: ${perMaster.join(', ')}`,
    );
  });

  it("runs a store's Lua script (defineCommand, EVALSHA) on whichever master owns the key", async () => {
    assert.ok(client);
    const limits = new RedisRateLimitStore(client, testKeyPrefix('cluster-rl'));
    const now = Date.now();
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const first = await limits.hit(key, 2, 60_000, now);
      const second = await limits.hit(key, 2, 60_000, now + 1);
      const third = await limits.hit(key, 2, 60_000, now + 2);
      assert.deepEqual([first.allowed, second.allowed, third.allowed], [true, true, false], key);
    }
  });

  it('follows a MOVED: keys of slots resharded to another master are read through a stale slot map', async () => {
    assert.ok(client && cluster);
    const prefix = testKeyPrefix('cluster-moved');
    // 3,000 keys: about 36 of them in the 200 slots that move.
    const keys = Array.from({ length: 3000 }, (_, i) => `${prefix}${i}`);
    await Promise.all(keys.map((k) => client!.set(k, k)));
    const [from, to] = await cluster.masters();
    assert.ok(from && to);
    await cluster.reshard(from, to, 200);
    const movedSlots = new Set<number>();
    const now = await cluster.masters();
    for (const [a, b] of now.find((m) => m.id === to.id)!.slots)
      for (let s = a; s <= b; s++) if (from.slots.some(([x, y]) => s >= x && s <= y)) movedSlots.add(s);
    assert.equal(movedSlots.size, 200);
    const slots = await cluster.slotsOf(keys);
    const moved = keys.filter((_, i) => movedSlots.has(slots[i] as number));
    assert.ok(moved.length > 0, 'some keys are in the moved slots');
    // Whether or not the periodic slot refresh already ran, route the moved slots to their old
    // master, as a client that has not refreshed yet does: every read gets a MOVED first.
    for (const s of movedSlots) client.slots[s] = [from.address];
    assert.deepEqual(await Promise.all(moved.map((k) => client!.get(k))), moved);
    for (const s of new Set(moved.map((k) => slots[keys.indexOf(k)] as number)))
      assert.equal(client.slots[s]?.[0], to.address, `the MOVED reply updated slot ${s} in the map`);
  });

  it('keeps serving reads and writes while slots (and their keys) move: no error during a live reshard', async () => {
    assert.ok(client && cluster);
    const prefix = testKeyPrefix('cluster-live');
    const keys = Array.from({ length: 400 }, (_, i) => `${prefix}${i}`);
    await Promise.all(keys.map((k) => client!.set(k, '0')));
    const [, from, to] = await cluster.masters();
    assert.ok(from && to);
    const errors: string[] = [];
    let ops = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = w; !stop; i += 4) {
        const k = keys[i % keys.length] as string;
        try {
          await client!.incr(k);
          if ((await client!.get(k)) === null) errors.push(`${k} lost`);
          ops++;
        } catch (e) {
          errors.push((e as Error).message);
        }
      }
    };
    const traffic = Promise.all([0, 1, 2, 3].map(worker));
    try {
      await cluster.reshard(from, to, 1000);
    } finally {
      stop = true;
      await traffic;
    }
    assert.deepEqual(errors, []);
    assert.ok(ops > 0);
    const total = (await Promise.all(keys.map((k) => client!.get(k)))).reduce((n, v) => n + Number(v), 0);
    assert.equal(total, ops, 'every increment kept');
  });
});

describe('Redis Cluster client: failing fast', function () {
  this.timeout(60_000);
  let cluster: RedisCluster | undefined;
  const clients: Cluster[] = [];

  before(async function () {
    await requireRedisCluster(this);
    // Without full coverage the other slots keep serving while one has no master.
    cluster = await RedisCluster.start({ requireFullCoverage: false });
  });
  after(async () => {
    clients.forEach((c) => c.disconnect());
    await cluster?.stop();
  });

  const clientOf = (c: RedisCluster, timeoutMs: number): Cluster => {
    const made = createRedisClient({ mode: 'cluster', nodes: c.seeds }, { commandTimeoutMs: timeoutMs });
    clients.push(made);
    return made;
  };

  it('a call made before the client is ready waits for it (bounded by the command timeout) instead of failing', async () => {
    assert.ok(cluster);
    const fresh = clientOf(cluster, 2000);
    const store = withReadyWait(new RedisRateLimitStore(fresh, testKeyPrefix('cluster-ready')), ['hit'], fresh, 2000);
    assert.notEqual(fresh.status, 'ready');
    assert.equal((await store.hit('k', 1, 1000, Date.now())).allowed, true);
  });

  it('a call while no node answers is rejected after about the command timeout, not hung', async () => {
    const dead = createRedisClient(
      { mode: 'cluster', nodes: [{ host: '127.0.0.1', port: 1 }] },
      { commandTimeoutMs: 300, connectTimeoutMs: 200 },
    );
    clients.push(dead);
    const store = withReadyWait(new RedisRateLimitStore(dead, 'x:'), ['hit'], dead, 300);
    const r = await timed(store.hit('k', 1, 1000, Date.now()));
    assert.ok(r.error, 'rejected');
    assert.ok(r.ms < 5000, `rejected after ${r.ms} ms`);
  });

  it(
    'while a slot has no master (master and replica killed) its commands are rejected, not ' + 'hung; the other slots keep working',
    async () => {
      assert.ok(cluster);
      const c = clientOf(cluster, 500);
      await readyWithin(c, 5000);
      const prefix = testKeyPrefix('cluster-nomaster');
      const keys = Array.from({ length: 30 }, (_, i) => `${prefix}${i}`);
      await Promise.all(keys.map((k) => c.set(k, 'v')));
      const [victim] = await cluster.masters();
      assert.ok(victim);
      const owners = await ownersOf(cluster, keys);
      const orphaned = keys.filter((_, i) => owners[i]?.id === victim.id);
      const served = keys.filter((_, i) => owners[i]?.id !== victim.id);
      assert.ok(orphaned.length > 0 && served.length > 0);
      const replica = (await cluster.replicas()).find((r) => r.masterId === victim.id);
      assert.ok(replica);
      await cluster.kill(replica.port);
      await cluster.kill(victim.port);
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(orphaned.map((k) => timed(c.get(k))));
        for (const r of results) {
          assert.ok(r.error, 'a command to a slot without a master is rejected');
          assert.ok(r.ms < 5000, `rejected after ${r.ms} ms`);
        }
        assert.deepEqual(
          await Promise.all(served.map((k) => c.get(k))),
          served.map(() => 'v'),
        );
      }
    },
  );
});
