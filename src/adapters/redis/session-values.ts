/**
 * A session's own key (key-layout.ts: `s:<type>:<id>`, record and last-active time in one value,
 * session-codec.ts) and, for sessions the previous release wrote, its `s` and `a` keys: each method is
 * one single-slot script or command on the session's key, and only when that key is missing the same
 * on the previous layout's keys (a session of the previous layout stays in it until it ends: moving
 * it would take two slots, so no step could be atomic). The authenticated request is ONE command on
 * the session's key (on standalone and Sentinel shared with the other reads of the tick,
 * command-per-tick.ts); only when that finds nothing (a session of the previous release, or an
 * unknown token) a second command reads the previous layout's keys.
 */
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { applySessionPatch, type SessionPatch } from '../../domain/session-patch';
import { CommandPerTick } from './command-per-tick';
import type { RedisKeys } from './key-layout';
import type { LuaScript, ScriptRunner } from './lua-scripts';
import type { RedisClient } from './redis-client';
import {
  decodeOneKey,
  decodeStored,
  isOneKeyValue,
  lastActiveField,
  parseLastActive,
  sessionBody,
  encodeSession,
  storedHash,
  type StoredValue,
  TOMBSTONE_CODES,
} from './session-codec';
import { SESSION_ID_HEX } from './session-pack';

export const SESSION_VALUE_SCRIPTS = {
  agSessionTouch: { file: 'session-touch.lua', keys: 1, sessionLib: true },
  agSessionTouchLegacy: { file: 'session-touch-legacy.lua', keys: 2, sessionLib: true },
  agSessionTouchMany: { file: 'session-touch-many.lua', keys: 'counted', sessionLib: true },
  agSessionWrite: { file: 'session-write.lua', keys: 1, sessionLib: true },
  agSessionReplace: { file: 'session-replace.lua', keys: 1, sessionLib: true },
  agSessionReplaceLegacy: { file: 'session-replace-legacy.lua', keys: 2, sessionLib: true },
  agSessionPatch: { file: 'session-patch.lua', keys: 1, sessionLib: true },
  agSessionPatchLegacy: { file: 'session-patch-legacy.lua', keys: 1, sessionLib: true },
  agSessionRemove: { file: 'session-remove.lua', keys: 2, sessionLib: true },
  agSessionTombstone: { file: 'session-tombstone.lua', keys: 2, sessionLib: true },
} satisfies Record<string, LuaScript>;

export type SessionValueScript = keyof typeof SESSION_VALUE_SCRIPTS;

/** How many compare-and-set rounds a patch tries before it gives up. */
const PATCH_ATTEMPTS = 8;

/** A session's value and, for one of the previous layout, its last-active value. */
type Read = readonly [string | null, string | null];
/** The keys of one session: its key, the previous layout's record and last-active keys. */
type Keys = readonly [string, string, string];
/** What the touch scripts answer for one session: nil, [value] or (previous layout) [json, lastActive]. */
type TouchReply = ReadonlyArray<string | null> | null;

/** A stored value as the session of token hash `hash`: null if absent, corrupt or another session's (same key id). */
export function storedSessionOf(hash: string, value: string | null, legacyLast: string | null): StoredSession | null {
  if (value !== null && isOneKeyValue(value)) {
    const found = decodeOneKey(value, hash);
    return found === null ? null : { state: 'active', record: found.record, lastActiveAt: found.lastActive };
  }
  const stored = decodeStored(value);
  if (stored === null || stored.state !== 'active') return stored;
  return { ...stored, lastActiveAt: parseLastActive(legacyLast, stored.record) };
}

/** What the tombstone script answered: its outcome and the value it replaced. */
export type TombstoneOutcome = readonly [outcome: 'changed' | 'pending' | 'dead' | 'kept', previous?: string];

export class SessionValues {
  /** The value of a session's key; with an idle limit read and touched (session-touch.lua): null when missing. */
  private readonly readOne: (key: string) => Promise<string | null>;
  private readonly touchOne: (key: string, now: string, idle: string) => Promise<string | null>;

  /**
   * `oneConnection`: every key is on one server (standalone, Sentinel), so the reads of one tick share one
   * command. `tombstoneRetentionMs`: how long a tombstone is kept at most (null: as long as the session it
   * replaces would have been).
   */
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly run: ScriptRunner<SessionValueScript>,
    oneConnection: boolean,
    private readonly tombstoneRetentionMs: number | null,
  ) {
    if (!oneConnection) {
      this.readOne = (key) => client.get(key);
      this.touchOne = async (key, now, idle) => valueOf((await this.run('agSessionTouch', key, now, idle)) as TouchReply);
      return;
    }
    const reads = new CommandPerTick(async (items: readonly string[]) => (await client.mget(items.slice())).map((v) => v ?? null));
    const touches = new CommandPerTick(async (items: ReadonlyArray<readonly [string, string, string]>) => {
      const args = items.flatMap(([, now, idle]) => [now, idle]);
      const replies = (await this.run('agSessionTouchMany', items.length, ...items.map(([k]) => k), ...args)) as unknown[];
      return replies.map((r) => (r instanceof Error ? r : valueOf(r as TouchReply)));
    });
    this.readOne = (key) => reads.run(key);
    this.touchOne = (key, now, idle) => touches.run([key, now, idle]) as Promise<string | null>;
  }

  /** The session's value: its key's, else (missing: a second command) the previous layout's record and last-active time. */
  private async readKeys([n, s, a]: Keys): Promise<Read> {
    const v = await this.readOne(n);
    if (v !== null) return [v, null];
    const [legacy, last] = await this.client.mget(s, a);
    return [legacy ?? null, last ?? null];
  }

  /** readKeys, touching the session at `now` unless it is frozen. */
  private async readAndTouch([n, s, a]: Keys, now: string, idle: string): Promise<Read> {
    const v = await this.touchOne(n, now, idle);
    if (v !== null || s === n) return [v, null];
    const r = (await this.run('agSessionTouchLegacy', s, a, now, idle)) as TouchReply;
    return r === null ? [null, null] : [r[0] ?? null, r[1] ?? null];
  }

  private keysOf(type: string, hash: string): Keys {
    const k = this.keys;
    return [k.session(type, hash), k.legacySession(type, hash), k.lastActive(type, hash)];
  }

  /** The session (either layout), read and, with an idle limit, touched at `now`: ONE command on one server. */
  async read(type: string, hash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const keys = this.keysOf(type, hash);
    const [value, last] =
      idleLimitMs === null ? await this.readKeys(keys) : await this.readAndTouch(keys, lastActiveField(now), String(idleLimitMs));
    return storedSessionOf(hash, value, last);
  }

  /** The session's value (either layout) without touching it. */
  async peek(type: string, hash: string): Promise<StoredValue | null> {
    const [n, s] = this.keysOf(type, hash);
    const v = await this.client.get(n);
    if (v !== null) return storedHash(v) === null || storedHash(v) === hash ? decodeStored(v) : null;
    return decodeStored(await this.client.get(s));
  }

  /** Writes a new session (its one key), unless something holds the key already. */
  async write(type: string, hash: string, record: SessionRecord, now: number, ret: string): Promise<boolean> {
    return (await this.run('agSessionWrite', this.keys.session(type, hash), encodeSession(now, hash, record), ret)) === 1;
  }

  /** Replaces an active session's record (retention reset, last-active kept); the previous value, or null if not active. */
  async replace(type: string, hash: string, record: SessionRecord, ret: string): Promise<string | null> {
    const [n, s, a] = this.keysOf(type, hash);
    const old = await this.run('agSessionReplace', n, sessionBody(hash, record), ret);
    if (old !== 0) return typeof old === 'string' ? old : null;
    const legacy = await this.run('agSessionReplaceLegacy', s, a, JSON.stringify(record), ret);
    return typeof legacy === 'string' ? legacy : null;
  }

  /** Read, patch, compare-and-set (one script); again on a newer record, at most PATCH_ATTEMPTS times. */
  async patch(type: string, hash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    const [n, s] = this.keysOf(type, hash);
    let legacy = false;
    for (let attempt = 0; attempt < PATCH_ATTEMPTS; attempt++) {
      let raw = legacy ? null : await this.client.get(n);
      if (raw === null) {
        legacy = true;
        raw = await this.client.get(s);
      }
      const stored = legacy ? decodeStored(raw) : storedSessionOf(hash, raw, null);
      if (raw === null || stored?.state !== 'active') return null;
      const next = applySessionPatch(stored.record, change(stored.record));
      const written = Number(
        legacy
          ? await this.run('agSessionPatchLegacy', s, raw, JSON.stringify(next))
          : await this.run('agSessionPatch', n, raw.slice(LAST_ACTIVE_HEAD), sessionBody(hash, next)),
      );
      if (written === 1) return next;
      if (written === -1) return null;
      if (written === -2) legacy = true;
    }
    throw new Error(`session record changed under ${PATCH_ATTEMPTS} patch attempts in a row`);
  }

  /** Removes the session or tombstone (either layout); what was stored, or null. */
  async remove(type: string, hash: string): Promise<string | null> {
    const [n, s, a] = this.keysOf(type, hash);
    const v = await this.run('agSessionRemove', n, n, hash);
    if (typeof v === 'string') return v;
    const legacy = await this.run('agSessionRemove', s, a);
    return typeof legacy === 'string' ? legacy : null;
  }

  /**
   * Tombstones an active session (either layout; see session-tombstone.lua). `now`: only one not past
   * expiresAt; `pendingRet` (an end at login): a missing session gets the tombstone at its key, kept that long.
   */
  async tombstone(type: string, hash: string, state: TombstoneState, now: string, pendingRet?: string): Promise<TombstoneOutcome> {
    const [n, s, a] = this.keysOf(type, hash);
    const code = TOMBSTONE_CODES[state];
    const tombRet = this.tombstoneRetentionMs === null ? '' : String(this.tombstoneRetentionMs);
    const first = (await this.run('agSessionTombstone', n, n, code, now, '0', '', tombRet)) as [string, string?];
    if (first[0] !== 'missing') return first as TombstoneOutcome;
    if (s !== n) {
      const legacy = (await this.run('agSessionTombstone', s, a, code, now, '0', '', tombRet)) as [string, string?];
      if (legacy[0] !== 'missing') return legacy as TombstoneOutcome;
    }
    if (pendingRet === undefined) return ['dead'];
    const pending = (await this.run('agSessionTombstone', n, n, code, now, '1', pendingRet, tombRet)) as [string, string?];
    return pending as TombstoneOutcome;
  }

  /**
   * The token hash of the active session whose token id is `tokenId`: the session key it names (a token
   * id of 32 hex digits is the key id), else the token-id key (the previous layout's 16-hex ids, and a
   * record whose token id is not its key id).
   */
  async findByTokenId(type: string, tokenId: string): Promise<string | null> {
    if (tokenId.length === SESSION_ID_HEX) {
      const v = await this.client.get(this.keys.session(type, tokenId));
      const stored = decodeStored(v);
      if (stored?.state === 'active' && stored.record.tokenId === tokenId) return storedHash(v);
    }
    const hash = await this.client.get(this.keys.tokenId(type, tokenId));
    if (hash === null) return null;
    return (await this.peek(type, hash))?.state === 'active' ? hash : null;
  }
}

/** Where a value's record part starts: after its 13-digit last-active head. */
const LAST_ACTIVE_HEAD = 13;

/** session-touch.lua's reply as the value (null: missing). */
function valueOf(r: TouchReply): string | null {
  return r === null ? null : (r[0] ?? null);
}
