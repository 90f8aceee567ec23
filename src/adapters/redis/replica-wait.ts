/**
 * Acknowledged writes that survive a failover: after each wrapped write succeeds on the master,
 * `WAIT n timeout` on the same connection blocks until n replicas hold it. Fewer acknowledgements
 * within the timeout reject the call, so the client is never told "done" for a write a promoted
 * replica might not have (the store guard turns the rejection into a 503 store-unavailable).
 *
 * On a cluster WAIT has no key, so the cluster client would send it to a random node, not
 * necessarily the master that took the write. Which master that was is not known here (a store
 * call may touch several slots), so WAIT runs on the connection to every master, in parallel,
 * and the lowest count decides: one round trip more per acknowledged write, as on one server,
 * but a master short of replicas fails the acknowledged writes of every slot, not only its own.
 */
import { isCluster, type RedisClient } from './redis-client';

export class ReplicaWaitError extends Error {
  override readonly name = 'ReplicaWaitError';
  constructor(
    readonly acknowledged: number,
    readonly wanted: number,
    timeoutMs: number,
    /** The master that fell short (cluster mode). */
    readonly master?: string,
  ) {
    super(`only ${acknowledged} of ${wanted} replica(s) acknowledged the write within ${timeoutMs} ms${master === undefined ? '' : ` on master ${master}`}`);
  }
}

export interface ReplicaWait {
  /** Replicas each acknowledged write waits for; 0 leaves the target unwrapped. */
  readonly replicas: number;
  /** The WAIT timeout in ms (the command timeout). */
  readonly timeoutMs: number;
}

/**
 * WAIT on the client the writes went through (on a cluster: on every master); rejects with
 * ReplicaWaitError on too few replicas.
 */
export async function waitForReplicas(client: RedisClient, wait: ReplicaWait): Promise<void> {
  if (!isCluster(client)) {
    const acknowledged = await client.wait(wait.replicas, wait.timeoutMs);
    if (acknowledged < wait.replicas) throw new ReplicaWaitError(acknowledged, wait.replicas, wait.timeoutMs);
    return;
  }
  const masters = client.nodes('master');
  if (masters.length === 0) throw new ReplicaWaitError(0, wait.replicas, wait.timeoutMs, '(none known)');
  const counts = await Promise.all(masters.map((m) => m.wait(wait.replicas, wait.timeoutMs)));
  const lowest = counts.indexOf(Math.min(...counts));
  const acknowledged = counts[lowest] as number;
  if (acknowledged < wait.replicas) {
    const { host, port } = (masters[lowest] as (typeof masters)[number]).options;
    throw new ReplicaWaitError(acknowledged, wait.replicas, wait.timeoutMs, `${host}:${port}`);
  }
}

/** `target` with each of `writes` followed by WAIT (the write's own result is returned once it is replicated). */
export function withReplicaWait<T extends object>(target: T, writes: readonly (keyof T)[], client: RedisClient, wait: ReplicaWait): T {
  if (wait.replicas <= 0) return target;
  const wrapped = Object.create(target) as T;
  for (const name of writes) {
    const fn = target[name];
    if (typeof fn !== 'function') continue;
    (wrapped as Record<keyof T, unknown>)[name] = async (...args: unknown[]) => {
      const result: unknown = await (fn as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      await waitForReplicas(client, wait);
      return result;
    };
  }
  return wrapped;
}
