/** ListStore on Redis: one script per append, one LRANGE per read. Keys: see key-layout.ts. */
import type { KeyLayoutKind } from './key-layout';
import type { RedisClient } from './redis-client';
import type { ListStore } from '../../application/ports/list-store';
import { normTtl } from '../store-common';
import type { LuaScript } from './lua-scripts';
import { ScriptedRedisStore } from './scripted-store';

const SCRIPTS = {
  agListAppend: { file: 'list-append.lua', keys: 1 },
} satisfies Record<string, LuaScript>;

export class RedisListStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements ListStore {
  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
  }

  async append(key: string, item: string, maxLength: number, ttlMs: number): Promise<number> {
    return Number(await this.run('agListAppend', this.keys.list(key), item, Math.max(1, Math.floor(maxLength)), normTtl(ttlMs)));
  }

  async list(key: string): Promise<string[]> {
    return this.client.lrange(this.keys.list(key), 0, -1);
  }
}
