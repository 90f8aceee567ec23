/**
 * What the nodes of a Redis Cluster say, for readiness and the health details: CLUSTER INFO on
 * every node the cluster client holds (in parallel, each bounded by a timeout), and, when the
 * details are asked for, CLUSTER NODES from one node that answers, with each node it lists
 * (reachable or not, role, slots). Never throws.
 */
import type { Cluster, default as Redis } from 'ioredis';
import { hostPort, withProbeConnection, withTimeout } from './probe-connection';

/** One node as CLUSTER NODES describes it. */
export interface ClusterNodeEntry {
  readonly id: string;
  /** host:port (the client port; IPv6 as [addr]:port). */
  readonly address: string;
  readonly role: 'master' | 'replica';
  /** A replica's master id; null for a master. */
  readonly masterId: string | null;
  /** Slot ranges a master serves, inclusive (slots being migrated, `[slot->-id]`, left out). */
  readonly slots: ReadonlyArray<readonly [number, number]>;
  /** Flagged `fail` or `fail?` by the node that answered. */
  readonly failing: boolean;
}

/** One node in the health details. */
export interface ClusterNodeView {
  readonly address: string;
  readonly role: 'master' | 'replica';
  /** It answered this probe. */
  readonly reachable: boolean;
  /** A master's slot ranges, e.g. "0-5460". */
  readonly slots?: readonly string[];
}

export interface ClusterView {
  /** cluster_state of the reachable masters: 'fail' if one says so, null when no master answers. */
  readonly state: 'ok' | 'fail' | null;
  /** A master that says cluster_state:fail. */
  readonly failingOn?: string;
  /** Every node CLUSTER NODES lists (only when asked for). */
  readonly nodes?: readonly ClusterNodeView[];
}

/** host:port with an IPv6 host in brackets (CLUSTER NODES prints it bare: `::1:7000`). */
function bracketed(hostAndPort: string): string {
  const i = hostAndPort.lastIndexOf(':');
  return hostPort(hostAndPort.slice(0, i), hostAndPort.slice(i + 1));
}

/** CLUSTER NODES, parsed. */
export function parseClusterNodes(text: string): ClusterNodeEntry[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [id = '', addr = '', flags = '', master = '-', , , , , ...slotFields] = line.trim().split(' ');
      const flagSet = flags.split(',');
      const slots = slotFields
        .filter((f) => !f.startsWith('['))
        .map((f): readonly [number, number] => {
          const [a, b] = f.split('-').map(Number) as [number, number | undefined];
          return [a, b ?? a];
        });
      return {
        id,
        address: bracketed(addr.split('@')[0] ?? addr),
        role: flagSet.includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? null : master,
        slots,
        failing: flagSet.includes('fail') || flagSet.includes('fail?'),
      };
    });
}

const addressOf = (n: Redis): string => hostPort(n.options.host ?? '', String(n.options.port));

/** CLUSTER INFO's cluster_state from one node; null when it does not answer. */
async function stateOf(node: Redis, timeoutMs: number): Promise<string | null> {
  try {
    const info = String(await withTimeout(node.call('CLUSTER', 'INFO'), timeoutMs, `no answer within ${timeoutMs} ms`));
    return /^cluster_state:(\w+)/m.exec(info)?.[1] ?? 'unknown';
  } catch {
    return null;
  }
}

/** A node the client holds no connection to: one short-lived connection, no retries. */
async function answers(address: string, client: Cluster, timeoutMs: number): Promise<boolean> {
  const i = address.lastIndexOf(':');
  const { username, password } = client.options.redisOptions ?? {};
  const target = {
    host: address.slice(0, i).replace(/^\[|\]$/g, ''),
    port: Number(address.slice(i + 1)),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
  try {
    return await withProbeConnection(target, timeoutMs, async (conn) => (await conn.ping()) === 'PONG');
  } catch {
    return false;
  }
}

/** Every node CLUSTER NODES (from `source`) lists, with whether it answered. */
async function nodeViews(
  client: Cluster,
  source: Redis,
  reachable: ReadonlyMap<string, boolean>,
  timeoutMs: number,
): Promise<ClusterNodeView[]> {
  const entries = parseClusterNodes(
    String(await withTimeout(source.call('CLUSTER', 'NODES'), timeoutMs, `no answer within ${timeoutMs} ms`)),
  );
  return Promise.all(
    entries.map(async (e) => ({
      address: e.address,
      role: e.role,
      reachable: reachable.get(e.address) ?? (await answers(e.address, client, timeoutMs)),
      ...(e.role === 'master' ? { slots: e.slots.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)) } : {}),
    })),
  );
}

/**
 * The cluster_state of every master the client holds, and (opts.nodes) every node. While the
 * client is not ready it is left alone: its node connections are being set up, and a probe
 * failing on one of them would end it and restart the discovery.
 */
export async function probeCluster(client: Cluster, opts: { readonly timeoutMs: number; readonly nodes: boolean }): Promise<ClusterView> {
  if (client.status !== 'ready') return { state: null, ...(opts.nodes ? { nodes: [] } : {}) };
  const masters = client.nodes('master');
  const all = [...masters, ...client.nodes('slave')];
  const states = await Promise.all(all.map((n) => stateOf(n, opts.timeoutMs)));
  const reachable = new Map(all.map((n, i) => [addressOf(n), states[i] !== null]));
  const masterStates = states.slice(0, masters.length);
  const failing = masterStates.findIndex((s) => s === 'fail');
  const state = failing >= 0 ? 'fail' : masterStates.some((s) => s === 'ok') ? 'ok' : null;
  const view: ClusterView = { state, ...(failing >= 0 ? { failingOn: addressOf(masters[failing] as Redis) } : {}) };
  if (!opts.nodes) return view;
  const source = all[states.findIndex((s) => s !== null)];
  try {
    if (source !== undefined) return { ...view, nodes: await nodeViews(client, source, reachable, opts.timeoutMs) };
  } catch {
    /* the node that answered CLUSTER INFO did not answer CLUSTER NODES: list the client's own nodes */
  }
  return {
    ...view,
    nodes: all.map((n, i) => ({ address: addressOf(n), role: i < masters.length ? 'master' : 'replica', reachable: states[i] !== null })),
  };
}
