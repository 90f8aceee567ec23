/** StoreHealth of the Redis stores: PING with a timeout, and closing the client they share. */
import type Redis from 'ioredis';
import type { StoreHealth } from '../../application/ports/store-health';

export interface RedisStoreHealthOptions {
  /** ping() reports down after this many ms even if the client has no command timeout. Default 2000. */
  readonly pingTimeoutMs?: number;
}

export class RedisStoreHealth implements StoreHealth {
  private readonly pingTimeoutMs: number;

  constructor(
    private readonly client: Redis,
    opts: RedisStoreHealthOptions = {},
  ) {
    this.pingTimeoutMs = opts.pingTimeoutMs ?? 2000;
  }

  /** PING with its latency; never throws: a failure or timeout reports `up: false` with the reason. */
  async ping(): Promise<{ up: boolean; latencyMs: number; detail?: string }> {
    const start = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`ping timed out after ${this.pingTimeoutMs} ms`)), this.pingTimeoutMs);
    });
    const pong = this.client.ping();
    pong.catch(() => undefined); // if the timeout wins, a late rejection must not go unhandled
    try {
      await Promise.race([pong, timeout]);
      return { up: true, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
    } catch (e) {
      return { up: false, latencyMs: Math.round(performance.now() - start), detail: e instanceof Error ? e.message : String(e) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Closes the shared client (QUIT, or a hard disconnect if QUIT cannot be sent), which ends
   * every store on it. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
