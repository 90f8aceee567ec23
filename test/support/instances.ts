/** Starts test/support/app-process.ts as a child process and talks to it (see that file). */
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import Redis from 'ioredis';
import type { InstanceReady } from './app-process';
import { deleteByPrefix, REDIS_URL, redisAvailable } from './services';

const SCRIPT = path.join(__dirname, 'app-process.ts');

export class AppInstance {
  /** Fatal errors (unhandled rejection, uncaught exception) the child reported. */
  readonly fatals: string[] = [];
  exitCode: number | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly ready: InstanceReady,
  ) {
    child.on('message', (m: { fatal?: string }) => {
      if (m.fatal !== undefined) this.fatals.push(m.fatal);
    });
    child.once('exit', (code) => (this.exitCode = code ?? -1));
  }

  /** Forks an instance with these configuration variables (added to a minimal environment). */
  static start(env: Record<string, string>, timeoutMs = 30_000): Promise<AppInstance> {
    return new Promise((resolve, reject) => {
      const child = fork(SCRIPT, [], {
        execArgv: ['--import', 'tsx'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_PROFILE: 'test', ...env },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('app instance did not report readiness in time'));
      }, timeoutMs);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`app instance exited with ${code} before it was ready`));
      };
      child.once('exit', onExit);
      child.on('message', function onMessage(m: Partial<InstanceReady>) {
        if (m.ready !== true) return;
        clearTimeout(timer);
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(new AppInstance(child, m as InstanceReady));
      });
    });
  }

  url(app: 'admin' | 'web'): string {
    return `http://127.0.0.1:${this.ready[app]}`;
  }

  get alive(): boolean {
    return this.exitCode === null;
  }

  /** The child's process.memoryUsage(). */
  memory(): Promise<NodeJS.MemoryUsage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no memory report')), 5000);
      const on = (m: { memory?: NodeJS.MemoryUsage }) => {
        if (!m.memory) return;
        clearTimeout(timer);
        this.child.off('message', on);
        resolve(m.memory);
      };
      this.child.on('message', on);
      this.child.send({ cmd: 'memory' });
    });
  }

  /** Stops the child (SIGKILL after 5 s) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    if (this.child.connected) this.child.send({ cmd: 'stop' });
    else this.child.kill('SIGTERM');
    const force = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(force);
  }
}

/**
 * The environment of app instances that share the test Redis under `keyPrefix`, as instances of one
 * deployment do (one RSA key for all, captcha off, loopback as the trusted proxy), plus `extra`.
 */
export function sharedRedisEnv(keyPrefix: string, extra: Record<string, string> = {}): Record<string, string> {
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    SVC_STORE: 'redis',
    SVC_REDIS_URL: REDIS_URL,
    SVC_REDIS_KEY_PREFIX: keyPrefix,
    SVC_RSA_PRIVATE_KEY: pem,
    // Instances accept each other's idempotency tokens only under one shared key.
    SVC_IDEMPOTENCY_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    SVC_CAPTCHA_ENABLED: 'false',
    SVC_TRUSTED_PROXIES: '127.0.0.1,::1',
    SVC_CRYPTO_WORKER_THREADS: '1',
    ...extra,
  };
}

/** After each test: no instance reported an unhandled rejection or uncaught exception, and each still runs. */
export function assertInstancesHealthy(instances: ReadonlyArray<AppInstance | undefined>): void {
  for (const i of instances) {
    if (!i) continue;
    assert.deepEqual(i.fatals, [], 'no unhandled rejection or uncaught exception in an instance');
    assert.ok(i.alive, 'the instance is still running');
  }
}

/** Stops the instances and the test's own infrastructure, then deletes the keys under `keyPrefix`. */
export async function stopInstances(
  instances: ReadonlyArray<AppInstance | undefined>,
  local: { close(): Promise<void> } | undefined,
  keyPrefix: string,
): Promise<void> {
  await Promise.all(instances.map((i) => i?.stop()));
  await local?.close();
  if (await redisAvailable()) {
    const c = new Redis(REDIS_URL);
    await deleteByPrefix(c, keyPrefix);
    c.disconnect();
  }
}
