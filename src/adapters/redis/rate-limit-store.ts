/** RateLimitStore on Redis: a sliding-window log per key, one Lua script per hit. Keys: see key-layout.ts. */
import type { KeyLayoutKind } from './key-layout';
import type { RedisClient } from './redis-client';
import type { RateLimitDecision, RateLimitStore } from '../../application/ports/rate-limit-store';
import { normTtl } from '../store-common';
import type { LuaScript } from './lua-scripts';
import { ScriptedRedisStore } from './scripted-store';

const SCRIPTS = {
  agRateHit: { file: 'rate-hit.lua', keys: 1 },
} satisfies Record<string, LuaScript>;

let memberSeq = 0;

export class RedisRateLimitStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements RateLimitStore {
  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision> {
    const win = normTtl(windowMs);
    // A unique member per accepted hit, so equal timestamps are all counted.
    memberSeq = (memberSeq + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${now}-${process.pid}-${memberSeq}-${Math.random().toString(36).slice(2, 8)}`;
    const reply = (await this.run(
      'agRateHit',
      this.keys.rateLog(key),
      String(now),
      String(win),
      String(Math.floor(limit)),
      member,
      String(now - win),
    )) as number[];
    return {
      allowed: Number(reply[0]) === 1,
      remaining: Math.max(0, Number(reply[1] ?? 0)),
      retryAfterMs: Math.max(0, Number(reply[2] ?? 0)),
      resetMs: Math.max(0, Number(reply[3] ?? 0)),
    };
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.keys.rateLog(key));
  }
}
