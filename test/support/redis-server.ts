/**
 * A throw-away redis-server on a spare loopback port, for tests that stop Redis mid-traffic.
 * Skips loudly when redis-server is not installed, except under CI=true where it fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function requireRedisServer(ctx: Mocha.Context): Promise<void> {
  if (redisServerInstalled()) return;
  if (process.env.CI === 'true') throw new Error('redis-server is not installed and CI=true: store-outage tests must run in CI');
  console.warn('\n  !!! SKIPPING store-outage tests: redis-server binary not found !!!\n');
  ctx.skip();
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Waits until a loopback port accepts connections (up) or refuses them (down). */
export async function waitForPort(port: number, up: boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (open === up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis on port ${port} did not become ${up ? 'reachable' : 'unreachable'}`);
}

export class DisposableRedis {
  private proc: ChildProcess | null = null;
  constructor(
    readonly port: number,
    /** requirepass of the server (a prod-like Redis); none when undefined. */
    readonly password?: string,
  ) {}
  static async create(opts: { password?: string } = {}): Promise<DisposableRedis> {
    const r = new DisposableRedis(await freePort(), opts.password);
    await r.start();
    return r;
  }
  get url(): string {
    return this.password === undefined
      ? `redis://127.0.0.1:${this.port}`
      : `redis://:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    if (this.proc && this.proc.exitCode === null) return; // already running
    this.proc = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
        ...(this.password === undefined ? [] : ['--requirepass', this.password]),
      ],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(this.port, true);
  }
  /** Kills the server abruptly (no clean shutdown), as a crash would. */
  async kill(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    await waitForPort(this.port, false);
  }
}
