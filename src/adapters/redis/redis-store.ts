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

export interface RedisStoreOptions {
  /** ping() reports down after this many ms even if the client has no command timeout. Default 2000. */
  readonly pingTimeoutMs?: number;
}

/** Lua helpers shared by the session scripts. */
const LUA_LIB = `
local function active(v)
  if not v or v == 'kicked-out' or v == 'replaced' then return nil end
  local ok, rec = pcall(cjson.decode, v)
  if ok and type(rec) == 'table' then return rec end
  return nil
end
local function current(rec, now)
  return type(rec.expiresAt) ~= 'number' or rec.expiresAt > now
end
local function userKey(uPrefix, rec)
  if type(rec.principal) == 'table' and type(rec.principal.userId) == 'string' then
    return uPrefix .. rec.principal.userId
  end
  return nil
end
local function dropToken(tPrefix, rec, hash)
  if type(rec.tokenId) ~= 'string' then return end
  local tk = tPrefix .. rec.tokenId
  if redis.call('GET', tk) == hash then redis.call('DEL', tk) end
end
local function unindex(uPrefix, tPrefix, rec, hash)
  local uk = userKey(uPrefix, rec)
  if uk then redis.call('ZREM', uk, hash) end
  dropToken(tPrefix, rec, hash)
end
local function keepIndex(key, before, ret)
  if ret == '' then redis.call('PERSIST', key)
  elseif before == -2 or (before >= 0 and before < tonumber(ret)) then redis.call('PEXPIRE', key, ret) end
end
local function setWithTtl(key, value, ret)
  if ret == '' then redis.call('SET', key, value) else redis.call('SET', key, value, 'PX', ret) end
end
`;

/** The scripts: name -> number of KEYS and body. */
const SCRIPTS = {
  // KEYS s, a, u, t, all | ARGV json, now, ret('' = none), replaceOthers, hash, uScore, createdAt, sPrefix, aPrefix, tPrefix
  agSessionCreate: {
    keys: 5,
    lua: `${LUA_LIB}
local now, ret, hash = tonumber(ARGV[2]), ARGV[3], ARGV[5]
local replaced = 0
-- GC: user-index entries past their deadline (the score is a hint; the session key decides).
for _, h in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[2], 'LIMIT', 0, 20)) do
  if not active(redis.call('GET', ARGV[8] .. h)) then redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h) end
end
if ARGV[4] == '1' then
  for _, h in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if h ~= hash then
      local sk = ARGV[8] .. h
      local rec = active(redis.call('GET', sk))
      if rec == nil then
        redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h)
      elseif current(rec, now) then
        -- Sessions past expiresAt are left alone so they still read as "expired".
        redis.call('SET', sk, 'replaced', 'KEEPTTL')
        redis.call('DEL', ARGV[9] .. h)
        redis.call('ZREM', KEYS[3], h); redis.call('ZREM', KEYS[5], h)
        dropToken(ARGV[10], rec, h)
        replaced = replaced + 1
      end
    end
  end
end
setWithTtl(KEYS[1], ARGV[1], ret)
setWithTtl(KEYS[2], ARGV[2], ret)
setWithTtl(KEYS[4], hash, ret)
local before = redis.call('PTTL', KEYS[3])
redis.call('ZADD', KEYS[3], ARGV[6], hash)
keepIndex(KEYS[3], before, ret)
redis.call('ZADD', KEYS[5], ARGV[7], hash)
-- GC: a small random sample of the per-type index, so it stays bounded without listAll calls.
for _, h in ipairs(redis.call('ZRANDMEMBER', KEYS[5], 3)) do
  if h ~= hash then
    local v = redis.call('GET', ARGV[8] .. h)
    if not v or v == 'kicked-out' or v == 'replaced' then redis.call('ZREM', KEYS[5], h) end
  end
end
return replaced`,
  },
  // KEYS s, a | ARGV now, idleLimit. Returns nil, {marker} or {json, lastActiveBeforeTouch}.
  agSessionTouch: {
    keys: 2,
    lua: `${LUA_LIB}
local v = redis.call('GET', KEYS[1])
if not v then return false end
if v == 'kicked-out' or v == 'replaced' then return {v} end
local raw = redis.call('GET', KEYS[2])
local last = tonumber(raw)
if last == nil then
  local rec = active(v)
  if rec == nil or type(rec.createdAt) ~= 'number' then return {v} end
  last = rec.createdAt
  raw = tostring(last)
end
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
-- Touch only when not already frozen (idle longer than the limit).
if now > last and now - last <= idle then
  local pttl = redis.call('PTTL', KEYS[1])
  if pttl > 0 then redis.call('SET', KEYS[2], ARGV[1], 'PX', pttl) else redis.call('SET', KEYS[2], ARGV[1]) end
end
return {v, raw}`,
  },
  // KEYS s, a, u(new), t(new), all | ARGV json, ret, hash, createdAt, uPrefix, tPrefix
  agSessionUpdate: {
    keys: 5,
    lua: `${LUA_LIB}
local old = active(redis.call('GET', KEYS[1]))
if old == nil then return 0 end
local ret, hash = ARGV[2], ARGV[3]
-- Drop index entries of the old record if the user or token id changed.
local oldUser = userKey(ARGV[5], old)
if oldUser and oldUser ~= KEYS[3] then redis.call('ZREM', oldUser, hash) end
if type(old.tokenId) == 'string' and ARGV[6] .. old.tokenId ~= KEYS[4] then dropToken(ARGV[6], old, hash) end
setWithTtl(KEYS[1], ARGV[1], ret)
setWithTtl(KEYS[4], hash, ret)
local score = '+inf'
if ret == '' then
  redis.call('PERSIST', KEYS[2])
else
  redis.call('PEXPIRE', KEYS[2], ret)
  local t = redis.call('TIME')
  score = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ret))
end
local before = redis.call('PTTL', KEYS[3])
redis.call('ZADD', KEYS[3], score, hash)
keepIndex(KEYS[3], before, ret)
redis.call('ZADD', KEYS[5], ARGV[4], hash)
return 1`,
  },
  // KEYS s, a, all | ARGV hash, uPrefix, tPrefix
  agSessionDelete: {
    keys: 3,
    lua: `${LUA_LIB}
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local rec = active(v)
if rec then unindex(ARGV[2], ARGV[3], rec, ARGV[1]) end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[1], KEYS[2])
return 1`,
  },
  // KEYS all | ARGV state, sPrefix, aPrefix, uPrefix, tPrefix, hash...
  agSessionMark: {
    keys: 1,
    lua: `${LUA_LIB}
local n = 0
for i = 6, #ARGV do
  local h = ARGV[i]
  local sk = ARGV[2] .. h
  local rec = active(redis.call('GET', sk))
  if rec then
    redis.call('SET', sk, ARGV[1], 'KEEPTTL')
    redis.call('DEL', ARGV[3] .. h)
    unindex(ARGV[4], ARGV[5], rec, h)
    redis.call('ZREM', KEYS[1], h)
    n = n + 1
  end
end
return n`,
  },
  // KEYS u | ARGV now, sPrefix, aPrefix. Returns {hash, json, lastActive or '', ...}.
  agSessionListUser: {
    keys: 1,
    lua: `${LUA_LIB}
local now = tonumber(ARGV[1])
local out = {}
for _, h in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local v = redis.call('GET', ARGV[2] .. h)
  local rec = active(v)
  if rec == nil then
    redis.call('ZREM', KEYS[1], h)
  elseif current(rec, now) then
    out[#out + 1] = h
    out[#out + 1] = v
    out[#out + 1] = redis.call('GET', ARGV[3] .. h) or ''
  end
end
return out`,
  },
  // KEYS all | ARGV now, limit, sPrefix, aPrefix. Oldest first; prunes dead entries it meets.
  agSessionListAll: {
    keys: 1,
    lua: `${LUA_LIB}
local now, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
local out, found, pos = {}, 0, 0
while found < limit do
  local batch = redis.call('ZRANGE', KEYS[1], pos, pos + 99)
  if #batch == 0 then break end
  local dead = {}
  for _, h in ipairs(batch) do
    if found >= limit then break end
    local v = redis.call('GET', ARGV[3] .. h)
    local rec = active(v)
    if rec == nil then
      dead[#dead + 1] = h
    else
      pos = pos + 1
      if current(rec, now) then
        found = found + 1
        out[#out + 1] = h
        out[#out + 1] = v
        out[#out + 1] = redis.call('GET', ARGV[4] .. h) or ''
      end
    end
  end
  if #dead > 0 then redis.call('ZREM', KEYS[1], unpack(dead)) end
end
return out`,
  },
  // KEYS t | ARGV sPrefix
  agSessionFindToken: {
    keys: 1,
    lua: `${LUA_LIB}
local h = redis.call('GET', KEYS[1])
if not h then return false end
if active(redis.call('GET', ARGV[1] .. h)) then return h end
return false`,
  },
  // KEYS k | ARGV expected
  agKvDeleteIfEquals: {
    keys: 1,
    lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
  },
  // KEYS k | ARGV value, ttl. Returns the held value, or false when this call stored `value`.
  // (SET NX GET would do on Redis >= 7 only; the script also runs on 6.x.)
  agKvSetIfAbsentOrGet: {
    keys: 1,
    lua: `local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false`,
  },
  // KEYS k | ARGV expected, value, ttl
  agKvReplaceIfEquals: {
    keys: 1,
    lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`,
  },
  // KEYS list | ARGV item, maxLength, ttl. Returns the new length.
  agListAppend: {
    keys: 1,
    lua: `redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('LLEN', KEYS[1])`,
  },
  // KEYS k | ARGV ttl. TTL set on creation only (or if the key somehow has none).
  agKvIncrement: {
    keys: 1,
    lua: `local c = redis.call('INCR', KEYS[1])
local t = redis.call('PTTL', KEYS[1])
if c == 1 or t == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  t = tonumber(ARGV[1])
end
return {c, t}`,
  },
  // KEYS log | ARGV now, window, limit, member, cutoff(now - window).
  // Returns {allowed, remaining, retryAfterMs, resetMs}.
  agRateHit: {
    keys: 1,
    lua: `local now, win, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[5])
local n = redis.call('ZCARD', KEYS[1])
local function scoreAt(i) return tonumber(redis.call('ZRANGE', KEYS[1], i, i, 'WITHSCORES')[2]) end
if n < limit then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, limit - n - 1, 0, scoreAt(-1) + win - now}
end
if n == 0 then return {0, 0, win, 0} end
local retry = win
if limit > 0 then retry = scoreAt(n - limit) + win - now end
return {0, 0, retry, scoreAt(-1) + win - now}`,
  },
} as const;

type ScriptName = keyof typeof SCRIPTS;
type ScriptFn = (...args: Array<string | number>) => Promise<unknown>;

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

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    opts: RedisStoreOptions = {},
  ) {
    this.pingTimeoutMs = opts.pingTimeoutMs ?? 2000;
    // Several stores may share one client: the scripts are the same, define them once.
    for (const [name, script] of Object.entries(SCRIPTS)) {
      if (typeof (client as unknown as Record<string, unknown>)[name] !== 'function') {
        client.defineCommand(name, { numberOfKeys: script.keys, lua: script.lua });
      }
    }
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

  /** Runs a defined script (EVALSHA; ioredis falls back to EVAL on NOSCRIPT). */
  private run(name: ScriptName, ...args: Array<string | number>): Promise<unknown> {
    const fn = (this.client as unknown as Record<string, ScriptFn | undefined>)[name];
    if (fn === undefined) throw new Error(`RedisStore: script ${name} is not defined`);
    return fn.apply(this.client, args);
  }

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
