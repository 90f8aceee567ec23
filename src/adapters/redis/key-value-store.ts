/**
 * KeyValueStore on Redis: one command or one Lua script per call, so every call is one round
 * trip and atomic. Keys: see key-layout.ts. The multi-key scripts (setMany,
 * deleteIfEqualsAndSet) take every key in KEYS. On a cluster (tagged layout) keys about one
 * subject share a slot, so a call over one subject stays one atomic script; a call over several
 * subjects runs one script per run of adjacent same-slot keys, in the order the keys were given
 * (the port's contract).
 */
import type { KeyLayoutKind } from './key-layout';
import type { RedisClient } from './redis-client';
import type { KeyValueEntry, KeyValueStore } from '../../application/ports/key-value-store';
import { normTtl } from '../store-common';
import calculateSlot from 'cluster-key-slot';
import type { LuaScript } from './lua-scripts';
import { ScriptedRedisStore } from './scripted-store';

const SCRIPTS = {
  agKvDeleteIfEquals: { file: 'kv-delete-if-equals.lua', keys: 1 },
  agKvSetIfAbsentOrGet: { file: 'kv-set-if-absent-or-get.lua', keys: 1 },
  agKvReplaceIfEquals: { file: 'kv-replace-if-equals.lua', keys: 1 },
  agKvIncrement: { file: 'kv-increment.lua', keys: 1 },
  agKvSetMany: { file: 'kv-set-many.lua', keys: 'counted' },
  agKvDeleteIfEqualsAndSet: { file: 'kv-delete-if-equals-and-set.lua', keys: 2 },
} satisfies Record<string, LuaScript>;

export class RedisKeyValueStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements KeyValueStore {
  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(this.keys.keyValue(key));
  }

  async delete(key: string): Promise<boolean> {
    return (await this.client.del(this.keys.keyValue(key))) > 0;
  }

  async set(key: string, value: string, ttlMs: number | null): Promise<void> {
    if (ttlMs === null) await this.client.set(this.keys.keyValue(key), value);
    else await this.client.set(this.keys.keyValue(key), value, 'PX', normTtl(ttlMs));
  }

  async setMany(entries: readonly KeyValueEntry[]): Promise<void> {
    for (const group of this.bySlot(entries)) {
      const keys = group.map((e) => this.keys.keyValue(e.key));
      const argv = group.flatMap((e) => [e.value, normTtl(e.ttlMs)]);
      await this.run('agKvSetMany', keys.length, ...keys, ...argv);
    }
  }

  /**
   * The entries in one group (plain layout), or in runs of adjacent entries of one slot, in the
   * given order (never merging across an entry of another slot: that would reorder the writes).
   */
  private bySlot(entries: readonly KeyValueEntry[]): KeyValueEntry[][] {
    if (entries.length === 0) return [];
    if (this.keys.kind === 'plain') return [[...entries]];
    const runs: KeyValueEntry[][] = [];
    let last = -1;
    for (const e of entries) {
      const slot = calculateSlot(this.keys.keyValue(e.key));
      if (slot === last) runs[runs.length - 1]?.push(e);
      else runs.push([e]);
      last = slot;
    }
    return runs;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.client.set(this.keys.keyValue(key), value, 'PX', normTtl(ttlMs), 'NX')) === 'OK';
  }

  async getAndDelete(key: string): Promise<string | null> {
    return this.client.getdel(this.keys.keyValue(key));
  }

  async deleteIfEquals(key: string, expected: string): Promise<boolean> {
    return Number(await this.run('agKvDeleteIfEquals', this.keys.keyValue(key), expected)) === 1;
  }

  async deleteIfEqualsAndSet(key: string, expected: string, next: KeyValueEntry): Promise<boolean> {
    const [k, nextKey] = [this.keys.keyValue(key), this.keys.keyValue(next.key)];
    if (this.keys.kind === 'tagged' && calculateSlot(k) !== calculateSlot(nextKey)) {
      // Two subjects on a cluster: the take decides, then the write follows it.
      if (!(await this.deleteIfEquals(key, expected))) return false;
      await this.set(next.key, next.value, next.ttlMs);
      return true;
    }
    const reply = await this.run('agKvDeleteIfEqualsAndSet', k, nextKey, expected, next.value, normTtl(next.ttlMs));
    return Number(reply) === 1;
  }

  async setIfAbsentOrGet(key: string, value: string, ttlMs: number): Promise<string | null> {
    const held = await this.run('agKvSetIfAbsentOrGet', this.keys.keyValue(key), value, normTtl(ttlMs));
    return typeof held === 'string' ? held : null;
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    return Number(await this.run('agKvReplaceIfEquals', this.keys.keyValue(key), expected, value, normTtl(ttlMs))) === 1;
  }

  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const reply = (await this.run('agKvIncrement', this.keys.keyValue(key), normTtl(ttlMs))) as [number, number];
    return { count: Number(reply[0]), ttlMs: Math.max(0, Number(reply[1])) };
  }
}
