import assert from 'node:assert/strict';
import type { RedisClient } from '../../src/adapters/redis/redis-client';
import { ROLE_CHECK_MS, ReplicaWaitError, waitForReplicas, withReplicaWait } from '../../src/adapters/redis/replica-wait';

/**
 * A stand-in for a node connection: ROLE lists `connected` replicas (default `acks`; 'error': it
 * fails), WAIT answers `acks`, and the calls are recorded.
 */
function fakeNode(port: number, acks: number, calls: string[], connected: number | 'error' = acks) {
  return {
    options: { host: '10.0.0.1', port },
    role: async () => {
      calls.push(`${port}: ROLE`);
      if (connected === 'error') throw new Error("NOPERM this user has no permissions to run the 'role' command");
      return ['master', 100, Array.from({ length: connected }, (_, i) => ['10.0.0.2', String(port + i), '100'])];
    },
    wait: async (n: number, ms: number) => {
      calls.push(`${port}: WAIT ${n} ${ms}`);
      return acks;
    },
  };
}
const waits = (calls: string[]) => calls.filter((c) => c.includes('WAIT')).sort();

const clusterOf = (nodes: ReturnType<typeof fakeNode>[]): RedisClient =>
  ({ isCluster: true, nodes: (role: string) => (role === 'master' ? nodes : []) }) as unknown as RedisClient;

describe('replica WAIT (svc.redis.wait-replicas)', () => {
  const wait = { replicas: 1, timeoutMs: 500 };

  it('on one server: WAIT on its connection; fewer acknowledgements reject', async () => {
    const calls: string[] = [];
    const one = { isCluster: false, ...fakeNode(6379, 1, calls) } as unknown as RedisClient;
    await waitForReplicas(one, wait);
    assert.deepEqual(calls, ['6379: ROLE', '6379: WAIT 1 500']);
    const lagging = { isCluster: false, ...fakeNode(6379, 0, [], 1) } as unknown as RedisClient;
    await assert.rejects(
      waitForReplicas(lagging, wait),
      (e: unknown) =>
        e instanceof ReplicaWaitError && e.acknowledged === 0 && e.wanted === 1 && /acknowledged the write within 500 ms/.test(e.message),
    );
  });

  it('on a cluster: WAIT on every master (a keyless WAIT through the cluster client would go to a random node)', async () => {
    const calls: string[] = [];
    await waitForReplicas(clusterOf([fakeNode(7000, 1, calls), fakeNode(7001, 2, calls), fakeNode(7002, 1, calls)]), wait);
    assert.deepEqual(waits(calls), ['7000: WAIT 1 500', '7001: WAIT 1 500', '7002: WAIT 1 500']);
  });

  it('on a cluster: the lowest count decides, and the error names that master', async () => {
    const calls: string[] = [];
    await assert.rejects(
      waitForReplicas(clusterOf([fakeNode(7000, 1, calls), fakeNode(7001, 0, calls, 1), fakeNode(7002, 1, calls)]), wait),
      (e: unknown) =>
        e instanceof ReplicaWaitError &&
        e.acknowledged === 0 &&
        e.master === '10.0.0.1:7001' &&
        /on master 10\.0\.0\.1:7001/.test(e.message),
    );
  });

  it('on a cluster client that knows no master: rejects (never "acknowledged" by an empty minimum)', async () => {
    await assert.rejects(waitForReplicas(clusterOf([]), wait), ReplicaWaitError);
  });

  it(
    'too few replicas connected (ROLE): rejects at once, without a WAIT that would block the ' +
      'connection; ROLE is asked once a second at most',
    async () => {
      const calls: string[] = [];
      const alone = { isCluster: false, ...fakeNode(6379, 0, calls, 0) } as unknown as RedisClient;
      for (let i = 0; i < 3; i++) {
        await assert.rejects(
          waitForReplicas(alone, wait),
          (e: unknown) =>
            e instanceof ReplicaWaitError &&
            e.acknowledged === 0 &&
            /only 0 of 1 replica\(s\) connected: the write is not waited for/.test(e.message),
        );
      }
      assert.deepEqual(calls, ['6379: ROLE'], 'no WAIT; one ROLE for the three writes');
      const cluster: string[] = [];
      await assert.rejects(
        waitForReplicas(clusterOf([fakeNode(7000, 1, cluster), fakeNode(7001, 1, cluster, 0)]), wait),
        (e: unknown) =>
          e instanceof ReplicaWaitError && e.master === '10.0.0.1:7001' && /connected on master 10\.0\.0\.1:7001/.test(e.message),
      );
      assert.deepEqual(waits(cluster), ['7000: WAIT 1 500'], 'no WAIT on the master without a replica');
    },
  );

  it('the replica count is asked again after ROLE_CHECK_MS: a replica back is waited for again', async () => {
    const calls: string[] = [];
    const node = { isCluster: false, ...fakeNode(6379, 1, calls, 0) };
    const client = node as unknown as RedisClient;
    await assert.rejects(waitForReplicas(client, wait), ReplicaWaitError);
    node.role = async () => (calls.push('6379: ROLE'), ['master', 100, [['10.0.0.2', '6380', '100']]]);
    await assert.rejects(waitForReplicas(client, wait), ReplicaWaitError, 'within ROLE_CHECK_MS the count is not asked again');
    const realNow = Date.now;
    const later = realNow() + ROLE_CHECK_MS;
    Date.now = () => later;
    try {
      await waitForReplicas(client, wait);
    } finally {
      Date.now = realNow;
    }
    assert.deepEqual(calls, ['6379: ROLE', '6379: ROLE', '6379: WAIT 1 500']);
  });

  it('a ROLE that fails (an ACL without it) decides nothing: WAIT runs', async () => {
    const calls: string[] = [];
    await waitForReplicas({ isCluster: false, ...fakeNode(6379, 1, calls, 'error') } as unknown as RedisClient, wait);
    assert.deepEqual(waits(calls), ['6379: WAIT 1 500']);
  });

  it("withReplicaWait: the write's result once replicated; reads and replicas=0 untouched", async () => {
    const calls: string[] = [];
    const client = clusterOf([fakeNode(7000, 1, calls)]);
    const store = { write: async () => 'written', read: async () => 'read' };
    const wrapped = withReplicaWait(store, ['write'], client, wait);
    assert.equal(await wrapped.write(), 'written');
    assert.equal(await wrapped.read(), 'read');
    assert.equal(waits(calls).length, 1);
    assert.equal(withReplicaWait(store, ['write'], client, { replicas: 0, timeoutMs: 500 }), store);
  });
});
