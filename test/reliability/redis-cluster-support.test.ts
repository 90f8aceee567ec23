/**
 * The test support's Redis Cluster (test/support/redis-cluster.ts) does what the cluster suites
 * rely on: 3 masters + 3 replicas covering every slot, per-node statistics and key counts, a
 * reshard that moves slots, a killed master replaced by its replica (and back as its replica once
 * restarted), and nothing left behind by stop(). Skipped loudly without redis-server / redis-cli (fails under CI=true).
 */
import { Cluster } from 'ioredis';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { ALL_SLOTS, type ClusterNode, RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { liveProcesses } from '../support/redis-processes';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'cluster-support-pw';

function slotCount(m: ClusterNode): number {
  return m.slots.reduce((n, [a, b]) => n + b - a + 1, 0);
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', () => resolve(true));
  });
}

describe('test support: a real Redis Cluster (3 masters, 3 replicas)', function () {
  this.timeout(60_000);
  let cluster: RedisCluster | undefined;
  let client: Cluster | undefined;

  before(async function () {
    await requireRedisCluster(this);
    const started = Date.now();
    cluster = await RedisCluster.start({ password: PASSWORD });
    console.log(`      (cluster up in ${Date.now() - started} ms)`);
    client = new Cluster(cluster.seeds, { redisOptions: { password: PASSWORD } });
  });
  after(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  it(
    'comes up with every slot served by exactly one of 3 masters, each with its own replica, ' + 'cluster_state:ok on all 6 nodes',
    async () => {
      assert.ok(cluster);
      const masters = await cluster.masters();
      assert.equal(masters.length, 3);
      const owner = new Array<number>(ALL_SLOTS).fill(0);
      for (const m of masters) for (const [a, b] of m.slots) for (let s = a; s <= b; s++) owner[s] = (owner[s] ?? 0) + 1;
      assert.ok(
        owner.every((n) => n === 1),
        'each slot exactly once',
      );
      const replicas = await cluster.replicas();
      assert.deepEqual(replicas.map((r) => r.masterId).sort(), masters.map((m) => m.id).sort());
      for (const port of cluster.ports) assert.equal(await cluster.clusterInfo(port, 'cluster_state'), 'ok');
    },
  );

  it('counts keys per master and commands over every node', async () => {
    assert.ok(cluster && client);
    const prefix = testKeyPrefix('support');
    await cluster.resetCommandStats();
    await Promise.all(Array.from({ length: 60 }, (_, i) => client!.set(`${prefix}${i}`, 'x')));
    assert.equal((await cluster.commandStats()).set, 60, 'the masters executed each SET once');
    const perMaster = await cluster.keysPerMaster(prefix);
    assert.equal(perMaster.size, 3);
    assert.equal(
      [...perMaster.values()].reduce((a, b) => a + b, 0),
      60,
    );
    assert.ok(
      [...perMaster.values()].every((n) => n > 0),
      `keys on every master: ${[...perMaster.values()].join(', ')}`,
    );
  });

  it('reshards: moves slots from one master to another', async () => {
    assert.ok(cluster);
    const [from, to] = await cluster.masters();
    assert.ok(from && to);
    await cluster.reshard(from, to, 50);
    const after = await cluster.masters();
    assert.equal(slotCount(after.find((m) => m.id === from.id)!), slotCount(from) - 50);
    assert.equal(slotCount(after.find((m) => m.id === to.id)!), slotCount(to) + 50);
    await cluster.waitForState('ok');
  });
});

describe('test support: a Redis Cluster master killed, then the cluster stopped', function () {
  this.timeout(60_000);

  before(async function () {
    await requireRedisCluster(this);
  });

  it(
    "promotes the killed master's replica (its slots, cluster_state:ok); the node restarted " +
      'rejoins as its replica; stop() leaves no process and no files',
    async () => {
      const before = liveProcesses();
      const cluster = await RedisCluster.start();
      try {
        const master = (await cluster.masters())[1];
        assert.ok(master);
        const { killed, promoted } = await cluster.killMaster(1);
        assert.equal(killed.id, master.id);
        assert.deepEqual(promoted.slots, master.slots);
        assert.equal((await cluster.masters()).length, 3);
        assert.ok(await refused(killed.port));
        await cluster.restart(killed.port);
        await cluster.waitUntilHealthy();
        const back = (await cluster.replicas()).find((r) => r.port === killed.port);
        assert.equal(back?.masterId, promoted.id, "the restarted node is the new master's replica");
      } finally {
        await cluster.stop();
      }
      assert.equal(liveProcesses(), before);
      for (const port of cluster.ports) assert.ok(await refused(port), `port ${port} closed`);
      assert.equal(existsSync(cluster.dir), false);
    },
  );
});
