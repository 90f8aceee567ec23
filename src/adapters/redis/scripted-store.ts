/** What every Redis store class that runs Lua scripts starts from. */
import { type KeyLayoutKind, RedisKeys } from './key-layout';
import { type LuaScript, scriptRunner, type ScriptRunner } from './lua-scripts';
import { isCluster, type RedisClient } from './redis-client';

/** The key layout a client needs: tagged on a Redis Cluster, plain otherwise. */
export function layoutOf(client: RedisClient): KeyLayoutKind {
  return isCluster(client) ? 'tagged' : 'plain';
}

/** The shared client, the key layout under the shared prefix, and the runner of the store's own scripts. */
export abstract class ScriptedRedisStore<N extends string> {
  protected readonly keys: RedisKeys;
  protected readonly run: ScriptRunner<N>;

  /** `layout` defaults to the one the client needs (layoutOf); tests pass 'tagged' to check it on one server. */
  protected constructor(
    protected readonly client: RedisClient,
    keyPrefix: string,
    scripts: Readonly<Record<N, LuaScript>>,
    layout: KeyLayoutKind = layoutOf(client),
  ) {
    this.keys = new RedisKeys(keyPrefix, layout);
    this.run = scriptRunner(client, scripts);
  }
}
