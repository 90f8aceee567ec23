import assert from 'node:assert/strict';
import type { RedisClient } from '../../src/adapters/redis/redis-client';
import { ReplicaWaitError, waitForReplicas, withReplicaWait } from '../../src/adapters/redis/replica-wait';

/** A stand-in for a node connection: WAIT answers `acks`, and the calls are recorded. */
function fakeNode(port: number, acks: number, calls: string[]) {
  return {
    options: { host: '10.0.0.1', port },
    wait: async (n: number, ms: number) => {
      calls.push(`${port}: WAIT ${n} ${ms}`);
      return acks;
    },
  };
}

const clusterOf = (nodes: ReturnType<typeof fakeNode>[]): RedisClient => ({ isCluster: true, nodes: (role: string) => (role === 'master' ? nodes : []) }) as unknown as RedisClient;

describe('replica WAIT (svc.redis.wait-replicas)', () => {
  const wait = { replicas: 1, timeoutMs: 500 };

  it('on one server: WAIT on its connection; fewer acknowledgements reject', async () => {
    const calls: string[] = [];
    const one = { isCluster: false, ...fakeNode(6379, 1, calls) } as unknown as RedisClient;
    await waitForReplicas(one, wait);
    assert.deepEqual(calls, ['6379: WAIT 1 500']);
    await assert.rejects(waitForReplicas(one, { replicas: 2, timeoutMs: 500 }), (e: unknown) => e instanceof ReplicaWaitError && e.acknowledged === 1 && e.wanted === 2);
  });

  it('on a cluster: WAIT on every master (a keyless WAIT through the cluster client would go to a random node)', async () => {
    const calls: string[] = [];
    await waitForReplicas(clusterOf([fakeNode(7000, 1, calls), fakeNode(7001, 2, calls), fakeNode(7002, 1, calls)]), wait);
    assert.deepEqual(calls.sort(), ['7000: WAIT 1 500', '7001: WAIT 1 500', '7002: WAIT 1 500']);
  });

  it('on a cluster: the lowest count decides, and the error names that master', async () => {
    const calls: string[] = [];
    await assert.rejects(
      waitForReplicas(clusterOf([fakeNode(7000, 1, calls), fakeNode(7001, 0, calls), fakeNode(7002, 1, calls)]), wait),
      (e: unknown) => e instanceof ReplicaWaitError && e.acknowledged === 0 && e.master === '10.0.0.1:7001' && /on master 10\.0\.0\.1:7001/.test(e.message),
    );
  });

  it('on a cluster client that knows no master: rejects (never "acknowledged" by an empty minimum)', async () => {
    await assert.rejects(waitForReplicas(clusterOf([]), wait), ReplicaWaitError);
  });

  it('withReplicaWait: the write\'s result once replicated; reads and replicas=0 untouched', async () => {
    const calls: string[] = [];
    const client = clusterOf([fakeNode(7000, 1, calls)]);
    const store = { write: async () => 'written', read: async () => 'read' };
    const wrapped = withReplicaWait(store, ['write'], client, wait);
    assert.equal(await wrapped.write(), 'written');
    assert.equal(await wrapped.read(), 'read');
    assert.equal(calls.length, 1);
    assert.equal(withReplicaWait(store, ['write'], client, { replicas: 0, timeoutMs: 500 }), store);
  });
});
