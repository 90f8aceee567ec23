/**
 * Redis implementation of the store ports (ioredis). Every method is ONE round trip: a single
 * command, or one Lua script registered with `defineCommand` (sent as EVALSHA), so each
 * operation is atomic and as cheap as a GET (see REFERENCES.md). Never KEYS.
 *
 * Key layout, all under `keyPrefix` (<p>):
 *   <p>s:<type>:<hash>      session record JSON, or a tombstone marker 'kicked-out' / 'replaced'
 *                           (PX = retention; a tombstone keeps the remaining TTL via KEEPTTL)
 *   <p>a:<type>:<hash>      last-active time (ms, string), same TTL as the session
 *   <p>u:<type>:<userId>    ZSET of the user's active hashes, score = retention deadline (ms, +inf = none);
 *                           key TTL = longest member retention
 *   <p>t:<type>:<tokenId>   tokenHash of the active session with that short token id, same TTL
 *   <p>all:<type>           ZSET of active hashes of a login type, score = record.createdAt (listAll order)
 *   <p>kv:<key>             KeyValueStore values
 *   <p>l:<key>              ListStore lists (LIST, newest at the tail, PX refreshed on append)
 *   <p>rl:<key>             ZSET sliding log of accepted hits (score = hit time, unique member)
 *
 * Indexes only reference active sessions: mark/delete remove entries at once; entries whose
 * session expired by TTL are pruned by listByUser/listAll, by create (deadline-scored
 * candidates of the user, a random sample of the per-type index) and by the index's own TTL.
 *
 * Time: `now` arguments come from the app Clock and are used inside the scripts (never Redis
 * TIME, except for update(), which has no `now`: its user-index score is a GC hint only).
 * Store-owned TTLs are Redis PX TTLs. The scripts build some key names from prefixes, so the
 * store targets a standalone Redis (or a single cluster slot), not a sharded cluster.
 */
import Redis from 'ioredis';
import type { KeyValueStore } from '../../application/ports/key-value-store';
import type { ListStore } from '../../application/ports/list-store';
import type { RateLimitDecision, RateLimitStore } from '../../application/ports/rate-limit-store';
import type { CreateSessionInput, ListedSession, SessionStore } from '../../application/ports/session-store';
import type { StoreHealth } from '../../application/ports/store-health';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { type LuaScript, scriptRunner, type ScriptRunner } from './lua-scripts';

export interface RedisStoreOptions {
  /** ping() reports down after this many ms even if the client has no command timeout. Default 2000. */
  readonly pingTimeoutMs?: number;
}

/** The scripts (files under ./scripts) by command name. */
const SCRIPTS = {
  agSessionCreate: { file: 'session-create.lua', keys: 5, sessionLib: true },
  agSessionTouch: { file: 'session-touch.lua', keys: 2, sessionLib: true },
  agSessionUpdate: { file: 'session-update.lua', keys: 5, sessionLib: true },
  agSessionDelete: { file: 'session-delete.lua', keys: 3, sessionLib: true },
  agSessionMark: { file: 'session-mark.lua', keys: 1, sessionLib: true },
  agSessionListUser: { file: 'session-list-user.lua', keys: 1, sessionLib: true },
  agSessionListAll: { file: 'session-list-all.lua', keys: 1, sessionLib: true },
  agSessionFindToken: { file: 'session-find-token.lua', keys: 1, sessionLib: true },
  agKvDeleteIfEquals: { file: 'kv-delete-if-equals.lua', keys: 1 },
  agKvSetIfAbsentOrGet: { file: 'kv-set-if-absent-or-get.lua', keys: 1 },
  agKvReplaceIfEquals: { file: 'kv-replace-if-equals.lua', keys: 1 },
  agListAppend: { file: 'list-append.lua', keys: 1 },
  agKvIncrement: { file: 'kv-increment.lua', keys: 1 },
  agRateHit: { file: 'rate-hit.lua', keys: 1 },
} satisfies Record<string, LuaScript>;

const TOMBSTONES: readonly string[] = ['kicked-out', 'replaced'] satisfies TombstoneState[];

/** Store TTLs are whole milliseconds, at least 1 (PX rejects 0). */
function normTtl(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}

/** Parses a stored record; anything corrupt or of the wrong shape reads as absent. */
function parseRecord(json: string): SessionRecord | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const r = v as Partial<SessionRecord>;
    if (typeof r.tokenId !== 'string' || typeof r.createdAt !== 'number') return null;
    if (r.expiresAt !== null && typeof r.expiresAt !== 'number') return null;
    if (typeof r.principal !== 'object' || r.principal === null || typeof r.principal.userId !== 'string') return null;
    return v as SessionRecord;
  } catch {
    return null;
  }
}

/** lastActive as stored, falling back to createdAt when missing or unreadable. */
function parseLastActive(raw: string | null | undefined, record: SessionRecord): number {
  const n = raw ? Number(raw) : NaN;
  return Number.isFinite(n) ? n : record.createdAt;
}

/** Turns a flat {hash, json, lastActive} reply into listed sessions, skipping corrupt ones. */
function toListed(reply: unknown): ListedSession[] {
  const flat = Array.isArray(reply) ? (reply as Array<string | null>) : [];
  const out: ListedSession[] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) {
    const tokenHash = flat[i];
    const json = flat[i + 1];
    if (typeof tokenHash !== 'string' || typeof json !== 'string') continue;
    const record = parseRecord(json);
    if (record === null) continue;
    out.push({ tokenHash, record, lastActiveAt: parseLastActive(flat[i + 2], record) });
  }
  return out;
}

function sessionOrder(a: ListedSession, b: ListedSession): number {
  if (a.record.createdAt !== b.record.createdAt) return a.record.createdAt - b.record.createdAt;
  return a.tokenHash < b.tokenHash ? -1 : a.tokenHash > b.tokenHash ? 1 : 0;
}

let memberSeq = 0;

export class RedisStore implements SessionStore, KeyValueStore, ListStore, RateLimitStore, StoreHealth {
  private readonly pingTimeoutMs: number;
  private readonly run: ScriptRunner<keyof typeof SCRIPTS>;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    opts: RedisStoreOptions = {},
  ) {
    this.pingTimeoutMs = opts.pingTimeoutMs ?? 2000;
    this.run = scriptRunner(client, SCRIPTS);
  }

  // ---------------------------------------------------------------- keys

  private sKey = (type: string, hash: string): string => `${this.keyPrefix}s:${type}:${hash}`;
  private aKey = (type: string, hash: string): string => `${this.keyPrefix}a:${type}:${hash}`;
  private uKey = (type: string, userId: string): string => `${this.keyPrefix}u:${type}:${userId}`;
  private tKey = (type: string, tokenId: string): string => `${this.keyPrefix}t:${type}:${tokenId}`;
  private allKey = (type: string): string => `${this.keyPrefix}all:${type}`;
  private kvKey = (key: string): string => `${this.keyPrefix}kv:${key}`;
  private rlKey = (key: string): string => `${this.keyPrefix}rl:${key}`;
  private lKey = (key: string): string => `${this.keyPrefix}l:${key}`;

  // ---------------------------------------------------------------- SessionStore

  async create(input: CreateSessionInput): Promise<{ replaced: number }> {
    const { loginType: type, tokenHash: hash, record } = input;
    const ret = input.retentionMs === null ? '' : String(normTtl(input.retentionMs));
    const uScore = ret === '' ? '+inf' : String(input.now + Number(ret));
    const replaced = await this.run(
      'agSessionCreate',
      this.sKey(type, hash),
      this.aKey(type, hash),
      this.uKey(type, record.principal.userId),
      this.tKey(type, record.tokenId),
      this.allKey(type),
      JSON.stringify(record),
      String(input.now),
      ret,
      input.replaceOthers ? '1' : '0',
      hash,
      uScore,
      String(record.createdAt),
      this.sKey(type, ''),
      this.aKey(type, ''),
      this.tKey(type, ''),
    );
    return { replaced: Number(replaced) };
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(this.kvKey(key));
  }

  async delete(key: string): Promise<boolean> {
    return (await this.client.del(this.kvKey(key))) > 0;
  }

  async getSession(type: string, hash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    let value: string | null | undefined;
    let lastRaw: string | null | undefined;
    if (idleLimitMs === null) {
      // A single read: MGET of the record and its last-active time.
      [value, lastRaw] = await this.client.mget(this.sKey(type, hash), this.aKey(type, hash));
    } else {
      const reply = (await this.run('agSessionTouch', this.sKey(type, hash), this.aKey(type, hash), String(now), String(idleLimitMs))) as
        | Array<string | null>
        | null;
      if (reply === null) return null;
      [value, lastRaw] = reply;
    }
    if (value === null || value === undefined) return null;
    if (TOMBSTONES.includes(value)) return { state: value as TombstoneState };
    const record = parseRecord(value);
    if (record === null) return null;
    return { state: 'active', record, lastActiveAt: parseLastActive(lastRaw, record) };
  }

  async update(type: string, hash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const ret = retentionMs === null ? '' : String(normTtl(retentionMs));
    const ok = await this.run(
      'agSessionUpdate',
      this.sKey(type, hash),
      this.aKey(type, hash),
      this.uKey(type, record.principal.userId),
      this.tKey(type, record.tokenId),
      this.allKey(type),
      JSON.stringify(record),
      ret,
      hash,
      String(record.createdAt),
      this.uKey(type, ''),
      this.tKey(type, ''),
    );
    return Number(ok) === 1;
  }

  async deleteSession(keyOrType: string, tokenHash: string): Promise<boolean> {
    const n = await this.run(
      'agSessionDelete',
      this.sKey(keyOrType, tokenHash),
      this.aKey(keyOrType, tokenHash),
      this.allKey(keyOrType),
      tokenHash,
      this.uKey(keyOrType, ''),
      this.tKey(keyOrType, ''),
    );
    return Number(n) === 1;
  }

  async mark(type: string, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    if (tokenHashes.length === 0) return 0;
    const n = await this.run(
      'agSessionMark',
      this.allKey(type),
      state,
      this.sKey(type, ''),
      this.aKey(type, ''),
      this.uKey(type, ''),
      this.tKey(type, ''),
      ...tokenHashes,
    );
    return Number(n);
  }

  async listByUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    const reply = await this.run('agSessionListUser', this.uKey(type, userId), String(now), this.sKey(type, ''), this.aKey(type, ''));
    return toListed(reply).sort(sessionOrder);
  }

  async listAll(type: string, now: number, limit: number): Promise<ListedSession[]> {
    const max = Math.floor(limit);
    if (!(max > 0)) return [];
    const reply = await this.run('agSessionListAll', this.allKey(type), String(now), String(max), this.sKey(type, ''), this.aKey(type, ''));
    return toListed(reply);
  }

  async findByTokenId(type: string, tokenId: string): Promise<string | null> {
    const hash = await this.run('agSessionFindToken', this.tKey(type, tokenId), this.sKey(type, ''));
    return typeof hash === 'string' ? hash : null;
  }

  // ---------------------------------------------------------------- KeyValueStore

  async set(key: string, value: string, ttlMs: number | null): Promise<void> {
    if (ttlMs === null) await this.client.set(this.kvKey(key), value);
    else await this.client.set(this.kvKey(key), value, 'PX', normTtl(ttlMs));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.client.set(this.kvKey(key), value, 'PX', normTtl(ttlMs), 'NX')) === 'OK';
  }

  async getAndDelete(key: string): Promise<string | null> {
    return this.client.getdel(this.kvKey(key));
  }

  async deleteIfEquals(key: string, expected: string): Promise<boolean> {
    return Number(await this.run('agKvDeleteIfEquals', this.kvKey(key), expected)) === 1;
  }

  async setIfAbsentOrGet(key: string, value: string, ttlMs: number): Promise<string | null> {
    const held = await this.run('agKvSetIfAbsentOrGet', this.kvKey(key), value, normTtl(ttlMs));
    return typeof held === 'string' ? held : null;
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    return Number(await this.run('agKvReplaceIfEquals', this.kvKey(key), expected, value, normTtl(ttlMs))) === 1;
  }

  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const reply = (await this.run('agKvIncrement', this.kvKey(key), normTtl(ttlMs))) as [number, number];
    return { count: Number(reply[0]), ttlMs: Math.max(0, Number(reply[1])) };
  }

  // ---------------------------------------------------------------- ListStore

  async append(key: string, item: string, maxLength: number, ttlMs: number): Promise<number> {
    return Number(await this.run('agListAppend', this.lKey(key), item, Math.max(1, Math.floor(maxLength)), normTtl(ttlMs)));
  }

  async list(key: string): Promise<string[]> {
    return this.client.lrange(this.lKey(key), 0, -1);
  }

  // ---------------------------------------------------------------- RateLimitStore

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision> {
    const win = normTtl(windowMs);
    // A unique member per accepted hit, so equal timestamps are all counted.
    const member = `${now}-${process.pid}-${(memberSeq = (memberSeq + 1) % Number.MAX_SAFE_INTEGER)}-${Math.random().toString(36).slice(2, 8)}`;
    const reply = (await this.run('agRateHit', this.rlKey(key), String(now), String(win), String(Math.floor(limit)), member, String(now - win))) as number[];
    return {
      allowed: Number(reply[0]) === 1,
      remaining: Math.max(0, Number(reply[1] ?? 0)),
      retryAfterMs: Math.max(0, Number(reply[2] ?? 0)),
      resetMs: Math.max(0, Number(reply[3] ?? 0)),
    };
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.rlKey(key));
  }

  // ---------------------------------------------------------------- StoreHealth

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

  /** Closes the client (QUIT, or a hard disconnect if QUIT cannot be sent). Safe to call twice. */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
