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
 *
 * WAIT blocks its connection for up to the timeout, and that connection carries every other
 * command for that master: a master left without a replica (after a failover promoted its only
 * one) would hold each read queued behind an acknowledged write until it timed out too, so a
 * stream of logins would keep every request on that master failing. So each master is first
 * asked with ROLE how many replicas are connected (at most once per ROLE_CHECK_MS, shared by the
 * writes meanwhile); fewer than wanted fails the write at once, without WAIT. A ROLE that fails
 * (an ACL without it, a lost connection) decides nothing: WAIT runs as before.
 */
import type Redis from 'ioredis';
import { isCluster, type RedisClient } from './redis-client';
import { aroundMethods } from '../around-methods';

/** How long a master's count of connected replicas (ROLE) is used before it is asked again. */
export const ROLE_CHECK_MS = 1000;

export class ReplicaWaitError extends Error {
  override readonly name = 'ReplicaWaitError';
  constructor(
    readonly acknowledged: number,
    readonly wanted: number,
    /** The WAIT timeout; null when no WAIT was sent (ROLE showed too few replicas connected). */
    timeoutMs: number | null,
    /** The master that fell short (cluster mode). */
    readonly master?: string,
  ) {
    const on = master === undefined ? '' : ` on master ${master}`;
    super(
      timeoutMs === null
        ? `only ${acknowledged} of ${wanted} replica(s) connected${on}: the write is not waited for`
        : `only ${acknowledged} of ${wanted} replica(s) acknowledged the write within ${timeoutMs} ms${on}`,
    );
  }
}

export interface ReplicaWait {
  /** Replicas each acknowledged write waits for; 0 leaves the target unwrapped. */
  readonly replicas: number;
  /** The WAIT timeout in ms (the command timeout). */
  readonly timeoutMs: number;
}

/** What is used of a connection to a master. */
type MasterConnection = Pick<Redis, 'wait' | 'role'>;

const connected = new WeakMap<MasterConnection, { readonly at: number; readonly replicas: Promise<number | null> }>();

/** Replicas connected to the master behind `conn` (ROLE, asked at most once per ROLE_CHECK_MS); null when ROLE fails. */
function connectedReplicas(conn: MasterConnection): Promise<number | null> {
  const now = Date.now();
  const known = connected.get(conn);
  if (known !== undefined && now - known.at < ROLE_CHECK_MS) return known.replicas;
  const replicas = conn.role().then(
    (role) => (role[0] === 'master' && Array.isArray(role[2]) ? role[2].length : null),
    () => null,
  );
  connected.set(conn, { at: now, replicas });
  return replicas;
}

/** Replicas holding the connection's writes: WAIT's count, or ROLE's when too few are connected to wait for. */
async function acknowledgedOn(conn: MasterConnection, wait: ReplicaWait): Promise<{ acknowledged: number; timeoutMs: number | null }> {
  const replicas = await connectedReplicas(conn);
  if (replicas !== null && replicas < wait.replicas) return { acknowledged: replicas, timeoutMs: null };
  return { acknowledged: await conn.wait(wait.replicas, wait.timeoutMs), timeoutMs: wait.timeoutMs };
}

/**
 * WAIT on the client the writes went through (on a cluster: on every master); rejects with
 * ReplicaWaitError on too few replicas.
 */
export async function waitForReplicas(client: RedisClient, wait: ReplicaWait): Promise<void> {
  if (!isCluster(client)) {
    const { acknowledged, timeoutMs } = await acknowledgedOn(client, wait);
    if (acknowledged < wait.replicas) throw new ReplicaWaitError(acknowledged, wait.replicas, timeoutMs);
    return;
  }
  const masters = client.nodes('master');
  if (masters.length === 0) throw new ReplicaWaitError(0, wait.replicas, wait.timeoutMs, '(none known)');
  const results = await Promise.all(masters.map((m) => acknowledgedOn(m, wait)));
  const counts = results.map((r) => r.acknowledged);
  const lowest = counts.indexOf(Math.min(...counts));
  const short = results[lowest] as (typeof results)[number];
  if (short.acknowledged < wait.replicas) {
    const { host, port } = (masters[lowest] as (typeof masters)[number]).options;
    throw new ReplicaWaitError(short.acknowledged, wait.replicas, short.timeoutMs, `${host}:${port}`);
  }
}

/** `target` with each of `writes` followed by WAIT (the write's own result is returned once it is replicated). */
export function withReplicaWait<T extends object>(target: T, writes: readonly (keyof T)[], client: RedisClient, wait: ReplicaWait): T {
  if (wait.replicas <= 0) return target;
  return aroundMethods(target, writes, async (call) => {
    const result = await call();
    await waitForReplicas(client, wait);
    return result;
  });
}
