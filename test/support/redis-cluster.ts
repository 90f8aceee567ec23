/**
 * A throw-away Redis Cluster on free loopback ports: 3 masters and 3 replicas started from the
 * `redis-server` binary (cluster-node-timeout 1 s, no persistence, immediate diskless sync), joined
 * by `redis-cli --cluster create ... --cluster-replicas 1`. start() returns once every node says
 * cluster_state:ok, all 16384 slots are covered and every replica's link is up. Each process runs in
 * a process group of its own; stop() kills them all and removes the directory, and so does the exit
 * of the test process (redis-processes.ts), so a failing suite leaves nothing behind.
 * requireRedisCluster skips a suite loudly when redis-server or redis-cli is missing (fails under CI=true).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ClusterNodeEntry, parseClusterNodes } from '../../src/adapters/redis/cluster-probe';
import { ask, binaryInstalled, killGroup, removeDir, spawnTracked, startTwice, trackDir, until } from './redis-processes';
import { freePort } from './redis-server';

export const HOST = '127.0.0.1';
export const ALL_SLOTS = 16384;

/** One node as CLUSTER NODES describes it (the service's own parser), with its port. */
export interface ClusterNode extends ClusterNodeEntry {
  readonly port: number;
}

/** Skips the suite loudly without redis-server / redis-cli, or fails it under CI=true. */
export async function requireRedisCluster(ctx: Mocha.Context): Promise<void> {
  const missing = (['redis-server', 'redis-cli'] as const).filter((b) => !binaryInstalled(b));
  if (missing.length === 0) return;
  if (process.env.CI === 'true')
    throw new Error(`${missing.join(' and ')} not installed and CI=true: the Redis Cluster tests must run in CI`);
  console.warn(`\n  !!! SKIPPING Redis Cluster tests: ${missing.join(' and ')} not found !!!\n`);
  ctx.skip();
}

/** CLUSTER NODES, parsed. */
export function parseNodes(text: string): ClusterNode[] {
  return parseClusterNodes(text).map((n) => ({ ...n, port: Number(n.address.split(':').pop()) }));
}

/** `n` distinct free ports. */
async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** Runs redis-cli to its end (stopping `running` early kills it); rejects with its output when it fails. */
function runCli(args: string[], running: Set<ChildProcess>): Promise<string> {
  const p = spawnTracked('redis-cli', args, 'pipe');
  running.add(p);
  let out = '';
  p.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    p.once('error', reject);
    p.once('exit', (code, signal) => {
      running.delete(p);
      if (code === 0) resolve(out);
      else reject(new Error(`redis-cli ${args.slice(0, 2).join(' ')} ended with ${code ?? signal}:\n${out.slice(-2000)}`));
    });
  });
}

export class RedisCluster {
  private readonly procs = new Map<number, ChildProcess>();
  /** The cluster-bus port and the full-coverage setting each node was started with (restart() reuses them). */
  private readonly started = new Map<number, { busPort: number; fullCoverage: boolean }>();
  /** redis-cli runs not finished yet (a reshard). */
  private readonly clis = new Set<ChildProcess>();

  private constructor(
    /** The six data ports, in start order. */
    readonly ports: readonly number[],
    readonly password: string | undefined,
    /** The nodes' working directory (nodes-<port>.conf); removed by stop(). */
    readonly dir: string,
  ) {}

  /**
   * 3 masters + 3 replicas. `requireFullCoverage` (default true, Redis' default): a slot without a
   * master puts the whole cluster in cluster_state:fail.
   */
  static async start(opts: { password?: string; requireFullCoverage?: boolean } = {}): Promise<RedisCluster> {
    return startTwice(() => RedisCluster.startOnce(opts));
  }

  private static async startOnce(opts: { password?: string; requireFullCoverage?: boolean }): Promise<RedisCluster> {
    const ports = await freePorts(12);
    const c = new RedisCluster(ports.slice(0, 6), opts.password, trackDir(mkdtempSync(path.join(tmpdir(), 'ag-cluster-'))));
    try {
      c.ports.forEach((p, i) => c.startNode(p, ports[6 + i] as number, opts.requireFullCoverage ?? true));
      for (const p of c.ports)
        await until(`node ${p} up`, 5000, () => ask(p, c.password, async (r) => ((await r.ping()) === 'PONG' ? true : undefined)));
      await runCli(
        ['--cluster', 'create', ...c.ports.map((p) => `${HOST}:${p}`), '--cluster-replicas', '1', '--cluster-yes', ...c.auth()],
        c.clis,
      );
      await c.waitUntilHealthy(15_000);
      return c;
    } catch (e) {
      await c.stop();
      throw e;
    }
  }

  private auth(): string[] {
    return this.password === undefined ? [] : ['-a', this.password, '--no-auth-warning'];
  }

  private startNode(port: number, busPort: number, fullCoverage: boolean): void {
    const auth = this.password === undefined ? [] : ['--requirepass', this.password, '--masterauth', this.password];
    const args = [
      ...['--port', String(port), '--bind', HOST, '--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
      ...[
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '1000',
        '--cluster-require-full-coverage',
        fullCoverage ? 'yes' : 'no',
      ],
      ...['--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0', '--loglevel', 'warning', '--dir', this.dir, ...auth],
    ];
    this.procs.set(port, spawnTracked('redis-server', args));
    this.started.set(port, { busPort, fullCoverage });
  }

  /** Seed nodes as ioredis' Cluster takes them (every node: any of them is enough to discover the rest). */
  get seeds(): Array<{ host: string; port: number }> {
    return this.ports.map((port) => ({ host: HOST, port }));
  }

  /** `host:port,...` as svc.redis.nodes takes it. */
  get seedList(): string {
    return this.ports.map((p) => `${HOST}:${p}`).join(',');
  }

  /** Ports of the nodes still running. */
  get running(): number[] {
    return this.ports.filter((p) => this.procs.has(p));
  }

  /** CLUSTER NODES as the first running node that answers sees it. */
  async nodes(): Promise<ClusterNode[]> {
    let last: unknown;
    for (const port of this.running) {
      try {
        return parseNodes(String(await ask(port, this.password, (r) => r.call('CLUSTER', 'NODES'))));
      } catch (e) {
        last = e;
      }
    }
    throw new Error(`no cluster node answers${last instanceof Error ? ` (${last.message})` : ''}`);
  }

  /** The masters serving slots, lowest slot first (index i of killMaster). */
  async masters(): Promise<ClusterNode[]> {
    const nodes = await this.nodes();
    return nodes
      .filter((n) => n.role === 'master' && !n.failing && n.slots.length > 0)
      .sort((a, b) => (a.slots[0]?.[0] ?? 0) - (b.slots[0]?.[0] ?? 0));
  }

  async replicas(): Promise<ClusterNode[]> {
    return (await this.nodes()).filter((n) => n.role === 'replica' && !n.failing);
  }

  /** The hash slot of each key (CLUSTER KEYSLOT, one connection). */
  async slotsOf(keys: readonly string[]): Promise<number[]> {
    const port = this.running[0];
    if (port === undefined) throw new Error('no running node');
    return ask(port, this.password, (r) => Promise.all(keys.map(async (k) => Number(await r.call('CLUSTER', 'KEYSLOT', k)))));
  }

  /** `field` of CLUSTER INFO on one node. */
  async clusterInfo(port: number, field: string): Promise<string | undefined> {
    const info = String(await ask(port, this.password, (r) => r.call('CLUSTER', 'INFO')));
    return new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  }

  /** Every running node reports `state`. */
  async waitForState(state: 'ok' | 'fail', ms = 15_000): Promise<void> {
    await until(`cluster_state:${state} on every running node`, ms, async () => {
      for (const p of this.running) if ((await this.clusterInfo(p, 'cluster_state')) !== state) return undefined;
      return true;
    });
  }

  /**
   * On every running node: cluster_state:ok, all slots covered, and a view of 3 masters serving
   * slots, each with a replica; every replica's link up.
   */
  async waitUntilHealthy(ms = 15_000): Promise<void> {
    await until('cluster healthy (state ok, all slots covered, replicas in sync)', ms, async () => {
      for (const p of this.running) {
        if ((await this.clusterInfo(p, 'cluster_state')) !== 'ok' || (await this.clusterInfo(p, 'cluster_slots_ok')) !== String(ALL_SLOTS))
          return undefined;
        const view = parseNodes(String(await ask(p, this.password, (r) => r.call('CLUSTER', 'NODES')))).filter((n) => !n.failing);
        const masters = view.filter((n) => n.role === 'master' && n.slots.length > 0).map((n) => n.id);
        const replicaOf = view.filter((n) => n.role === 'replica').map((n) => n.masterId);
        if (masters.length !== 3 || !masters.every((id) => replicaOf.includes(id))) return undefined;
      }
      for (const r of await this.replicas()) {
        const repl = await ask(r.port, this.password, (c) => c.info('replication'));
        if (!repl.includes('master_link_status:up')) return undefined;
      }
      return true;
    });
  }

  /** SIGKILLs the node on `port` (a crash: no shutdown) and waits for the process to end. */
  async kill(port: number): Promise<void> {
    const p = this.procs.get(port);
    if (p === undefined) throw new Error(`no running node on port ${port}`);
    this.procs.delete(port);
    const exited = p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r));
    killGroup(p);
    await exited;
  }

  /**
   * Starts a killed node again on its ports, from its nodes-<port>.conf and with no data (no
   * persistence): it rejoins the cluster, and a master whose slots its replica took over meanwhile
   * comes back as a replica of that new master. Resolves once it answers PING (waitUntilHealthy()
   * then waits for its replication link).
   */
  async restart(port: number): Promise<void> {
    const was = this.started.get(port);
    if (was === undefined || this.procs.has(port)) throw new Error(`no killed node on port ${port}`);
    this.startNode(port, was.busPort, was.fullCoverage);
    await until(`node ${port} up`, 5000, () => ask(port, this.password, async (r) => ((await r.ping()) === 'PONG' ? true : undefined)));
  }

  /**
   * SIGKILLs master `i` (masters() order), waits until its replica is promoted and every running
   * node reports cluster_state:ok again; returns the killed master and the promoted replica.
   */
  async killMaster(i: number, ms = 15_000): Promise<{ killed: ClusterNode; promoted: ClusterNode }> {
    const master = (await this.masters())[i];
    if (master === undefined) throw new Error(`no master ${i}`);
    const replica = (await this.replicas()).find((r) => r.masterId === master.id);
    if (replica === undefined) throw new Error(`master ${master.address} has no replica`);
    await this.kill(master.port);
    const promoted = await until(`replica ${replica.address} promoted`, ms, async () =>
      (await this.masters()).find((m) => m.id === replica.id),
    );
    await this.waitForState('ok', ms);
    return { killed: master, promoted };
  }

  /**
   * `redis-cli --cluster reshard`: moves `slots` slots (with their keys) from one master to
   * another; resolves when redis-cli is done, so a test can run traffic meanwhile.
   */
  reshard(from: ClusterNode, to: ClusterNode, slots: number): Promise<string> {
    const entry = this.running[0];
    if (entry === undefined) return Promise.reject(new Error('no running node'));
    const args = [
      '--cluster',
      'reshard',
      `${HOST}:${entry}`,
      '--cluster-from',
      from.id,
      '--cluster-to',
      to.id,
      '--cluster-slots',
      String(slots),
      '--cluster-yes',
    ];
    return runCli([...args, ...this.auth()], this.clis);
  }

  /**
   * `INFO commandstats` summed over the nodes: calls per command (lower case, e.g. `get`,
   * `evalsha`). By default over the masters only: a replica replays every write it receives, so
   * summing over 'all' counts each write once more per replica.
   */
  async commandStats(over: 'masters' | 'all' = 'masters'): Promise<Record<string, number>> {
    const total: Record<string, number> = {};
    const ports = over === 'all' ? this.running : (await this.masters()).map((m) => m.port);
    for (const port of ports)
      for (const [cmd, calls] of Object.entries(await this.nodeCommandStats(port))) total[cmd] = (total[cmd] ?? 0) + calls;
    return total;
  }

  /** `INFO commandstats` of one node: calls per command. */
  async nodeCommandStats(port: number): Promise<Record<string, number>> {
    const text = await ask(port, this.password, (r) => r.info('commandstats'));
    return Object.fromEntries([...text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1] as string, Number(m[2])]));
  }

  /** CONFIG RESETSTAT on one node. */
  async resetNodeCommandStats(port: number): Promise<void> {
    await ask(port, this.password, (r) => r.config('RESETSTAT'));
  }

  /** CONFIG RESETSTAT on every running node (zeroes commandStats()). */
  async resetCommandStats(): Promise<void> {
    for (const port of this.running) await this.resetNodeCommandStats(port);
  }

  /** Keys under `prefix` on each master (or each replica) (SCAN MATCH, never KEYS), by node address. */
  async keysPerMaster(prefix: string, of: 'masters' | 'replicas' = 'masters'): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const m of of === 'masters' ? await this.masters() : await this.replicas()) {
      let n = 0;
      await ask(m.port, this.password, async (r) => {
        let cursor = '0';
        do {
          const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          n += keys.length;
        } while (cursor !== '0');
      });
      counts.set(m.address, n);
    }
    return counts;
  }

  /**
   * Kills every node (and a running reshard) and removes the files at once; resolves when every
   * process has exited (its ports are closed). Safe to call twice.
   */
  stop(): Promise<void> {
    const procs = [...this.procs.values(), ...this.clis];
    const exited = procs.map((p) =>
      p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => p.once('exit', () => r())),
    );
    procs.forEach(killGroup);
    this.procs.clear();
    this.started.clear();
    this.clis.clear();
    removeDir(this.dir);
    return Promise.all(exited).then(() => undefined);
  }
}
