/**
 * The Redis the bench's servers use: its own redis-server on a free loopback port when the binary
 * is installed (in its own process group, killed when the bench ends, even on failure), so other
 * clients of a shared Redis neither load it nor show up in the Redis commands counted per request.
 * BENCH_REDIS_URL names another one; without redis-server it falls back to REDIS_URL or 127.0.0.1:6379.
 */
import { spawn, spawnSync } from 'node:child_process';
import { freePort, waitForPort } from '../test/support/redis-server';

export async function benchRedis(): Promise<{ url: string; description: string; pid?: number; stop(): void }> {
  const named = process.env.BENCH_REDIS_URL;
  if (named) return { url: named, description: `${named} (BENCH_REDIS_URL)`, stop: () => undefined };
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    console.warn(`bench: redis-server is not installed; using ${url}, whose other clients count in the Redis commands per request`);
    return { url, description: `${url} (shared)`, stop: () => undefined };
  }
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    {
      stdio: 'ignore',
      detached: true, // its own process group
    },
  );
  const stop = (): void => {
    if (proc.exitCode === null && proc.pid !== undefined) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    });
  }
  await waitForPort(port, true);
  return { url: `redis://127.0.0.1:${port}`, description: `its own redis-server on port ${port}`, pid: proc.pid, stop };
}
