/**
 * The store contracts on Redis Cluster: a real 3-master / 3-replica cluster started by the test
 * support, the stores on the production client in cluster mode (ioredis' Cluster routes each key
 * to its slot's master) with the tagged key layout the client needs; then the health details and
 * readiness DOWN. Without redis-server / redis-cli the suite is skipped loudly (fails under CI=true).
 */
import type { Cluster } from 'ioredis';
import assert from 'node:assert/strict';
import type { ClusterNodeView } from '../../src/adapters/redis/cluster-probe';
import { readyWithin } from '../../src/adapters/redis/ready-wait';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisStoreHealth } from '../../src/adapters/redis/store-health';
import { RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { describeRedisStoreContracts } from './redis-contracts';
import { describeSessionLayoutUpgrade } from './session-layout-upgrade.contract';

const PASSWORD = 'cluster-contract-pw';

interface ClusterDetails {
  readonly mode: string;
  readonly clusterState: string | null;
  readonly nodes: ClusterNodeView[];
}

describe('store adapters: redis cluster (3 masters + 3 replicas)', function () {
  this.timeout(30_000);
  let cluster: RedisCluster | undefined;
  let client: Cluster | undefined;
  let twin: Cluster | undefined;
  const clusterClient = (): Cluster => {
    if (cluster === undefined) throw new Error('cluster not started');
    return createRedisClient({ mode: 'cluster', nodes: cluster.seeds, password: PASSWORD });
  };

  before(async function () {
    await requireRedisCluster(this);
    cluster = await RedisCluster.start({ password: PASSWORD });
    client = clusterClient();
    twin = clusterClient();
    await readyWithin(client, 5000);
    await readyWithin(twin, 5000);
  });
  after(async () => {
    await client?.quit().catch(() => undefined);
    await twin?.quit().catch(() => undefined);
    await cluster?.stop();
  });

  /** A health store on a client of its own, ready (close() in the contract quits it). */
  async function ownHealth(opts: { clusterNodes?: boolean } = {}): Promise<{ client: Cluster; store: RedisStoreHealth }> {
    const own = clusterClient();
    await readyWithin(own, 5000);
    return { client: own, store: new RedisStoreHealth(own, { mode: 'cluster', ...opts }) };
  }

  describeRedisStoreContracts({ label: ' on Cluster', client: () => client, twinClient: () => twin, health: () => ownHealth() });
  describeSessionLayoutUpgrade(' on Cluster', 'tagged', () => client && { store: client, raw: client });

  describe('health details', () => {
    it("report the mode, cluster_state:ok and every node: address, role, reachable, a master's slots", async () => {
      assert.ok(cluster);
      const { client: own, store } = await ownHealth({ clusterNodes: true });
      try {
        const r = await store.ping();
        assert.equal(r.up, true, r.detail);
        const details = r.details as unknown as ClusterDetails;
        assert.equal(details.mode, 'cluster');
        assert.equal(details.clusterState, 'ok');
        const masters = await cluster.masters();
        const byAddress = new Map(details.nodes.map((n) => [n.address, n]));
        assert.deepEqual([...byAddress.keys()].sort(), cluster.ports.map((p) => `127.0.0.1:${p}`).sort());
        assert.ok(details.nodes.every((n) => n.reachable));
        for (const m of masters) {
          assert.deepEqual(byAddress.get(m.address), {
            address: m.address,
            role: 'master',
            reachable: true,
            slots: m.slots.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)),
          });
        }
        for (const rep of await cluster.replicas())
          assert.deepEqual(byAddress.get(rep.address), { address: rep.address, role: 'replica', reachable: true });
      } finally {
        own.disconnect();
      }
    });

    it('without the node list (prod): the mode and cluster_state only', async () => {
      const { client: own, store } = await ownHealth();
      try {
        const r = await store.ping();
        assert.equal(r.up, true);
        assert.deepEqual(r.details, { mode: 'cluster', clusterState: 'ok' });
      } finally {
        own.disconnect();
      }
    });
  });
});

describe('store health on Redis Cluster: DOWN', function () {
  this.timeout(60_000);

  before(async function () {
    await requireRedisCluster(this);
  });

  it('when no node answers (every seed unreachable)', async () => {
    const dead = createRedisClient(
      { mode: 'cluster', nodes: [{ host: '127.0.0.1', port: 1 }] },
      { commandTimeoutMs: 300, connectTimeoutMs: 200 },
    );
    try {
      const r = await new RedisStoreHealth(dead, { mode: 'cluster', clusterNodes: true, pingTimeoutMs: 300 }).ping();
      assert.equal(r.up, false);
      assert.deepEqual(r.details, { mode: 'cluster', clusterState: null, nodes: [] });
    } finally {
      dead.disconnect();
    }
  });

  it(
    'when a master and its replica are gone (cluster_state:fail with full slot coverage ' + 'required); the details show them unreachable',
    async () => {
      const cluster = await RedisCluster.start({ requireFullCoverage: true });
      const own = createRedisClient({ mode: 'cluster', nodes: cluster.seeds }, { commandTimeoutMs: 500 });
      try {
        await readyWithin(own, 5000);
        const health = new RedisStoreHealth(own, { mode: 'cluster', clusterNodes: true, pingTimeoutMs: 500 });
        assert.equal((await health.ping()).up, true);
        const [victim] = await cluster.masters();
        const replica = (await cluster.replicas()).find((r) => r.masterId === victim?.id);
        assert.ok(victim && replica);
        await cluster.kill(replica.port);
        await cluster.kill(victim.port);
        await cluster.waitForState('fail');
        const r = await health.ping();
        assert.equal(r.up, false);
        assert.match(r.detail ?? '', /^cluster_state:fail on 127\.0\.0\.1:\d+$/);
        const details = r.details as unknown as ClusterDetails;
        assert.equal(details.clusterState, 'fail');
        const gone = details.nodes
          .filter((n) => !n.reachable)
          .map((n) => n.address)
          .sort();
        assert.deepEqual(gone, [victim.address, replica.address].sort());
      } finally {
        own.disconnect();
        await cluster.stop();
      }
    },
  );
});
