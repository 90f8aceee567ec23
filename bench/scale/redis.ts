/**
 * The Redis deployments of `npm run bench:scale`, each started here and torn down after its mode:
 * - standalone: one redis-server on a free loopback port;
 * - cluster: 3 masters on free ports joined by `redis-cli --cluster create --cluster-replicas 0`.
 *   No replicas (test/support/redis-cluster.ts starts 3 + 3): every figure here is read from the
 *   masters (INFO memory, DBSIZE, MEMORY USAGE summed over them), and replicas would only double
 *   the memory and the replication CPU on a shared 2-core machine.
 * Every process is started through the test support's tracked spawner (test/support/redis-processes.ts):
 * its own process group, SIGKILLed when this process exits, even after a failure.
 * No persistence (`--save ''`, no AOF): nothing is written to disk, however many sessions are filled.
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { killGroup, removeDir, spawnTracked, trackDir, until } from '../../test/support/redis-processes';
import { freePort } from '../../test/support/redis-server';

const run = promisify(execFile);
const HOST = '127.0.0.1';
const COMMON = ['--bind', HOST, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'];

/** A running deployment: the ports of its masters, what the service's configuration needs to reach it, and one client per master. */
export interface RedisDeployment {
  readonly kind: 'standalone' | 'cluster';
  /** The master ports (one for standalone). */
  readonly ports: readonly number[];
  /** Config overrides that point the service at it. */
  readonly overrides: Readonly<Record<string, unknown>>;
  /** One plain client per master (admin questions, SCAN, INFO, MEMORY USAGE). */
  readonly masters: readonly Redis[];
  stop(): Promise<void>;
}

function exited(p: ChildProcess): Promise<void> {
  return p.exitCode !== null || p.signalCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', () => r()));
}

async function connect(port: number): Promise<Redis> {
  const c = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 1, enableAutoPipelining: false });
  c.on('error', () => undefined); // refused until the server listens; the probe below retries
  await until(`redis on ${port} answers PING`, 10_000, async () => {
    if (c.status !== 'ready') await c.connect().catch(() => undefined);
    return c.status === 'ready' && (await c.ping()) === 'PONG' ? true : undefined;
  });
  return c;
}

function stopper(procs: ChildProcess[], clients: Redis[], dir?: string): () => Promise<void> {
  return async () => {
    for (const c of clients) c.disconnect();
    const done = procs.map(exited);
    procs.forEach(killGroup);
    await Promise.all(done);
    if (dir !== undefined) removeDir(dir);
  };
}

export async function startStandalone(): Promise<RedisDeployment> {
  const port = await freePort();
  const proc = spawnTracked('redis-server', ['--port', String(port), ...COMMON]);
  const client = await connect(port);
  return {
    kind: 'standalone',
    ports: [port],
    overrides: { 'svc.redis.mode': 'standalone', 'svc.redis.url': `redis://${HOST}:${port}` },
    masters: [client],
    stop: stopper([proc], [client]),
  };
}

export async function startCluster(): Promise<RedisDeployment> {
  const ports = new Set<number>();
  while (ports.size < 6) ports.add(await freePort());
  const [a, b, c, ...bus] = [...ports];
  const data = [a, b, c] as number[];
  const dir = trackDir(mkdtempSync(path.join(tmpdir(), 'ag-scale-cluster-')));
  const procs = data.map((port, i) =>
    spawnTracked('redis-server', [
      ...['--port', String(port), '--cluster-enabled', 'yes', '--cluster-port', String(bus[i])],
      ...['--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '5000', '--dir', dir],
      ...COMMON,
    ]),
  );
  const clients: Redis[] = [];
  try {
    for (const p of data) clients.push(await connect(p));
    await run('redis-cli', ['--cluster', 'create', ...data.map((p) => `${HOST}:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    await until('cluster_state:ok on every master', 20_000, async () => {
      for (const cl of clients) if (!String(await cl.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) return undefined;
      return true;
    });
  } catch (e) {
    await stopper(procs, clients, dir)();
    throw e;
  }
  return {
    kind: 'cluster',
    ports: data,
    overrides: {
      'svc.redis.mode': 'cluster',
      'svc.redis.url': '',
      'svc.redis.nodes': data.map((p) => `${HOST}:${p}`).join(','),
    },
    masters: clients,
    stop: stopper(procs, clients, dir),
  };
}

/** `INFO memory` used_memory, summed over the masters. */
export async function usedMemory(d: RedisDeployment): Promise<number> {
  let n = 0;
  for (const m of d.masters) n += Number(/^used_memory:(\d+)/m.exec(await m.info('memory'))?.[1] ?? NaN);
  return n;
}

/** DBSIZE summed over the masters. */
export async function dbSize(d: RedisDeployment): Promise<number> {
  let n = 0;
  for (const m of d.masters) n += await m.dbsize();
  return n;
}
