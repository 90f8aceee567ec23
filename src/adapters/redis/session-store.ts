/**
 * SessionStore on Redis. Every method is ONE round trip: an MGET, or one Lua script from
 * ./scripts (EVALSHA), so each operation is atomic and as cheap as a GET. Keys: see key-layout.ts.
 *
 * Indexes only reference active sessions: mark/delete remove entries at once; entries whose
 * session expired by TTL are pruned by listByUser/listAll, by create (deadline-scored
 * candidates of the user, a random sample of the per-type index) and by the index's own TTL.
 *
 * Time: `now` arguments come from the app Clock and are used inside the scripts (never Redis
 * TIME, except for update(), which has no `now`: its user-index score is a GC hint only).
 * Retention is a Redis PX TTL.
 */
import type { RedisClient } from './redis-client';
import type { CreateSessionInput, ListedSession, SessionStore } from '../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { bySessionAge, normTtl } from '../store-common';
import type { LuaScript } from './lua-scripts';
import { ScriptedRedisStore } from './scripted-store';
import { parseLastActive, parseRecord, toListed } from './session-codec';

const SCRIPTS = {
  agSessionCreate: { file: 'session-create.lua', keys: 5, sessionLib: true },
  agSessionTouch: { file: 'session-touch.lua', keys: 2, sessionLib: true },
  agSessionUpdate: { file: 'session-update.lua', keys: 5, sessionLib: true },
  agSessionDelete: { file: 'session-delete.lua', keys: 3, sessionLib: true },
  agSessionMark: { file: 'session-mark.lua', keys: 1, sessionLib: true },
  agSessionListUser: { file: 'session-list-user.lua', keys: 1, sessionLib: true },
  agSessionListAll: { file: 'session-list-all.lua', keys: 1, sessionLib: true },
  agSessionFindToken: { file: 'session-find-token.lua', keys: 1, sessionLib: true },
} satisfies Record<string, LuaScript>;

const TOMBSTONES: readonly string[] = ['kicked-out', 'replaced'] satisfies TombstoneState[];

/** Retention as the scripts take it: whole ms, or '' for none. */
function retentionArg(retentionMs: number | null): string {
  return retentionMs === null ? '' : String(normTtl(retentionMs));
}

export class RedisSessionStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements SessionStore {
  constructor(client: RedisClient, keyPrefix: string) {
    super(client, keyPrefix, SCRIPTS);
  }

  async create(input: CreateSessionInput): Promise<{ replaced: number }> {
    const { loginType: type, tokenHash: hash, record } = input;
    const k = this.keys;
    const ret = retentionArg(input.retentionMs);
    const uScore = ret === '' ? '+inf' : String(input.now + Number(ret));
    const replaced = await this.run(
      'agSessionCreate',
      ...this.recordKeys(type, hash, record),
      JSON.stringify(record),
      String(input.now),
      ret,
      input.replaceOthers ? '1' : '0',
      hash,
      uScore,
      String(record.createdAt),
      k.session(type, ''),
      k.lastActive(type, ''),
      k.tokenId(type, ''),
    );
    return { replaced: Number(replaced) };
  }

  async getSession(type: string, hash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const sKey = this.keys.session(type, hash);
    const aKey = this.keys.lastActive(type, hash);
    let value: string | null | undefined;
    let lastRaw: string | null | undefined;
    if (idleLimitMs === null) {
      // A single read: MGET of the record and its last-active time.
      [value, lastRaw] = await this.client.mget(sKey, aKey);
    } else {
      const reply = (await this.run('agSessionTouch', sKey, aKey, String(now), String(idleLimitMs))) as Array<string | null> | null;
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
    const ok = await this.run(
      'agSessionUpdate',
      ...this.recordKeys(type, hash, record),
      JSON.stringify(record),
      retentionArg(retentionMs),
      hash,
      String(record.createdAt),
      this.keys.user(type, ''),
      this.keys.tokenId(type, ''),
    );
    return Number(ok) === 1;
  }

  async deleteSession(type: string, hash: string): Promise<boolean> {
    const k = this.keys;
    const n = await this.run('agSessionDelete', k.session(type, hash), k.lastActive(type, hash), k.all(type), hash, k.user(type, ''), k.tokenId(type, ''));
    return Number(n) === 1;
  }

  async mark(type: string, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    if (tokenHashes.length === 0) return 0;
    const k = this.keys;
    const n = await this.run(
      'agSessionMark',
      k.all(type),
      state,
      k.session(type, ''),
      k.lastActive(type, ''),
      k.user(type, ''),
      k.tokenId(type, ''),
      ...tokenHashes,
    );
    return Number(n);
  }

  async listByUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    const k = this.keys;
    const reply = await this.run('agSessionListUser', k.user(type, userId), String(now), k.session(type, ''), k.lastActive(type, ''));
    return toListed(reply).sort(bySessionAge);
  }

  async listAll(type: string, now: number, limit: number): Promise<ListedSession[]> {
    const max = Math.floor(limit);
    if (!(max > 0)) return [];
    const k = this.keys;
    const reply = await this.run('agSessionListAll', k.all(type), String(now), String(max), k.session(type, ''), k.lastActive(type, ''));
    return toListed(reply);
  }

  async findByTokenId(type: string, tokenId: string): Promise<string | null> {
    const hash = await this.run('agSessionFindToken', this.keys.tokenId(type, tokenId), this.keys.session(type, ''));
    return typeof hash === 'string' ? hash : null;
  }

  /** KEYS s, a, u, t, all: the session's keys and the indexes its record belongs in. */
  private recordKeys(type: string, hash: string, record: SessionRecord): string[] {
    const k = this.keys;
    return [k.session(type, hash), k.lastActive(type, hash), k.user(type, record.principal.userId), k.tokenId(type, record.tokenId), k.all(type)];
  }
}
