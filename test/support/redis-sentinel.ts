/**
 * A throw-away Sentinel deployment on free loopback ports: one master, one replica and three
 * Sentinels (down-after 1 s, short failover timeout), each redis-server in its own process group.
 * Every process is killed by stop(), and on process exit too, so a failing suite leaves none behind.
 * Skips loudly when redis-server is missing (fails under CI=true), as requireRedisServer does.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ask, killGroup, removeDir, spawnTracked, startTwice, trackDir, until } from './redis-processes';
import { freePort } from './redis-server';

export const MASTER_NAME = 'mymaster';

/** redis-server with `args`, detached (a process group of its own), tracked for cleanup. */
const spawnRedis = (args: string[]): ChildProcess => spawnTracked('redis-server', args);

export class SentinelTopology {
  private readonly procs = new Map<number, ChildProcess>();

  private constructor(
    readonly dataPorts: readonly [number, number],
    readonly sentinelPorts: readonly number[],
    readonly password: string | undefined,
    private readonly dir: string,
  ) {}

  /** Master + replica + 3 Sentinels, replication in sync and every Sentinel aware of the others and of the replica. */
  static async start(opts: { password?: string } = {}): Promise<SentinelTopology> {
    return startTwice(() => SentinelTopology.startOnce(opts));
  }

  private static async startOnce(opts: { password?: string }): Promise<SentinelTopology> {
    const dataPorts = [await freePort(), await freePort()] as const;
    const sentinelPorts = [await freePort(), await freePort(), await freePort()];
    const t = new SentinelTopology(dataPorts, sentinelPorts, opts.password, trackDir(mkdtempSync(path.join(tmpdir(), 'ag-sentinel-'))));
    try {
      t.startData(dataPorts[0]);
      t.startData(dataPorts[1], dataPorts[0]);
      for (const p of sentinelPorts) t.startSentinel(p, dataPorts[0]);
      await t.ready();
      return t;
    } catch (e) {
      t.stop();
      throw e;
    }
  }

  get sentinels(): Array<{ host: string; port: number }> {
    return this.sentinelPorts.map((port) => ({ host: '127.0.0.1', port }));
  }

  /** `host:port,...` as svc.redis.sentinels takes it. */
  get sentinelList(): string {
    return this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',');
  }

  private startData(port: number, replicaOf?: number): void {
    const auth = this.password === undefined ? [] : ['--requirepass', this.password, '--masterauth', this.password];
    const repl = replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)];
    this.procs.set(
      port,
      spawnRedis([
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
        '--dir',
        this.dir,
        ...auth,
        ...repl,
      ]),
    );
  }

  private startSentinel(port: number, masterPort: number): void {
    const file = path.join(this.dir, `sentinel-${port}.conf`);
    const lines = [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${this.dir}`,
      'loglevel warning',
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      `sentinel failover-timeout ${MASTER_NAME} 2000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      ...(this.password === undefined ? [] : [`sentinel auth-pass ${MASTER_NAME} ${this.password}`]),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    this.procs.set(port, spawnRedis([file, '--sentinel']));
  }

  private async ready(): Promise<void> {
    const [master] = this.dataPorts;
    await until('replica in sync', 10_000, () =>
      ask(master, this.password, async (c) => ((await c.info('replication')).includes('state=online') ? true : undefined)),
    );
    for (const port of this.sentinelPorts) {
      await until(`sentinel ${port} sees the replica and the other sentinels`, 15_000, () =>
        ask(port, undefined, async (c) => {
          const flat = (await c.call('SENTINEL', 'master', MASTER_NAME)) as string[];
          const info = new Map<string, string>();
          for (let i = 0; i + 1 < flat.length; i += 2) info.set(flat[i] as string, flat[i + 1] as string);
          return info.get('num-slaves') === '1' && info.get('num-other-sentinels') === '2' ? true : undefined;
        }),
      );
    }
  }

  /** The master's port as the Sentinels name it now (null when none answers). */
  async masterPort(): Promise<number | null> {
    for (const port of this.sentinelPorts) {
      try {
        const addr = (await ask(port, undefined, (c) => c.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME))) as
          [string, string] | null;
        if (addr) return Number(addr[1]);
      } catch {
        /* try the next one */
      }
    }
    return null;
  }

  /** SIGKILLs the current master (a crash: no shutdown, no last sync); returns its port. */
  async killMaster(): Promise<number> {
    const port = await this.masterPort();
    if (port === null) throw new Error('no master known');
    const p = this.procs.get(port);
    if (p === undefined) throw new Error(`no process on port ${port}`);
    const exited = new Promise((r) => p.once('exit', r));
    killGroup(p);
    await exited;
    return port;
  }

  /** Waits until the Sentinels name a master other than `port`. */
  async promotedAfter(port: number, ms = 10_000): Promise<number> {
    return until('a replica promoted', ms, async () => {
      const now = await this.masterPort();
      return now !== null && now !== port ? now : undefined;
    });
  }

  /** Kills every process of the deployment and removes its files; safe to call twice. */
  stop(): void {
    for (const p of this.procs.values()) killGroup(p);
    this.procs.clear();
    removeDir(this.dir);
  }
}
