/**
 * A bounded wait for a cluster client that is not ready yet. ioredis' Cluster either queues a
 * command until it is ready, without any timeout, or (as redis-client.ts configures it) rejects
 * it at once. Wrapping a store with withReadyWait gives the single-connection behaviour instead:
 * a call made while the client is starting or rediscovering the cluster waits for it, at most
 * the command timeout, and then runs (failing at once if the client is still not ready). A
 * ready client costs one status check per call.
 */
import { aroundMethods } from '../around-methods';
import type { RedisClient } from './redis-client';

/** Resolves when the client is ready (or has ended), or after `timeoutMs`, whichever comes first. */
export function readyWithin(client: RedisClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready' || client.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
    client.once('end', done);
  });
}

/** `target` whose `methods` first wait (readyWithin) for the client to be ready. */
export function withReadyWait<T extends object>(target: T, methods: readonly (keyof T)[], client: RedisClient, timeoutMs: number): T {
  return aroundMethods(target, methods, async (call) => {
    if (client.status !== 'ready') await readyWithin(client, timeoutMs);
    return call();
  });
}
