/** What every Redis store class that runs Lua scripts starts from. */
import type { RedisClient } from './redis-client';
import { RedisKeys } from './key-layout';
import { type LuaScript, scriptRunner, type ScriptRunner } from './lua-scripts';

/** The shared client, the key layout under the shared prefix, and the runner of the store's own scripts. */
export abstract class ScriptedRedisStore<N extends string> {
  protected readonly keys: RedisKeys;
  protected readonly run: ScriptRunner<N>;

  protected constructor(
    protected readonly client: RedisClient,
    keyPrefix: string,
    scripts: Readonly<Record<N, LuaScript>>,
  ) {
    this.keys = new RedisKeys(keyPrefix);
    this.run = scriptRunner(client, scripts);
  }
}
