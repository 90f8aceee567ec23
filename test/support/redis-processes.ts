/**
 * What the throw-away Redis deployments of the test support share (redis-sentinel.ts,
 * redis-cluster.ts): each redis-server or redis-cli in a process group of its own, tracked so
 * that every one still running is SIGKILLed (and every temporary directory removed) when the
 * test process exits, even after a failed suite; polling with a deadline; one-question connections.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import Redis from 'ioredis';

const live = new Set<ChildProcess>();
const dirs = new Set<string>();

/** SIGKILLs the process group of `p` (nothing when it already exited). */
export function killGroup(p: ChildProcess): void {
  live.delete(p);
  if (p.pid === undefined || p.exitCode !== null || p.signalCode !== null) return;
  try {
    process.kill(-p.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Removes a temporary directory now, and forgets it. */
export function removeDir(dir: string): void {
  dirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

/** Removed on process exit if the suite did not remove it itself. */
export function trackDir(dir: string): string {
  dirs.add(dir);
  return dir;
}

process.on('exit', () => {
  [...live].forEach(killGroup);
  [...dirs].forEach(removeDir);
});

/** `command args`, detached (a process group of its own), tracked for cleanup. */
export function spawnTracked(command: 'redis-server' | 'redis-cli', args: string[], stdio: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const p = spawn(command, args, { stdio, detached: true });
  live.add(p);
  p.once('exit', () => live.delete(p));
  return p;
}

/** Processes of the support still running (a self-test checks that a stopped deployment left none). */
export function liveProcesses(): number {
  return [...live].filter((p) => p.exitCode === null && p.signalCode === null).length;
}

export function binaryInstalled(command: 'redis-server' | 'redis-cli'): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 100 ms until it returns something other than undefined; throws after `ms`. */
export async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await sleep(100);
  }
  throw new Error(`${what}: not within ${ms} ms${last instanceof Error ? ` (${last.message})` : ''}`);
}

/** A short-lived connection for one admin question. */
export async function ask<T>(port: number, password: string | undefined, fn: (c: Redis) => Promise<T>): Promise<T> {
  const c = new Redis({
    host: '127.0.0.1',
    port,
    ...(password ? { password } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await fn(c);
  } finally {
    c.disconnect();
  }
}

/**
 * Starts a throw-away topology, and once more on fresh ports when the first start fails: a port found free can be
 * taken (by a client connection's ephemeral port, say) before redis-server binds it, which only a new set of ports
 * cures. A second failure is a real one and is thrown.
 */
export async function startTwice<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (first) {
    process.stderr.write(
      `[test support] a Redis topology did not come up (${(first as Error).message}); starting it again on fresh ports\n`,
    );
    return start();
  }
}
