/**
 * SessionStore on Redis, cluster-safe (key-layout.ts): every script runs on keys of one slot and
 * builds no key name. A session's own keys (record s, last-active a) share a slot; the indexes
 * (user u, token id t, online bucket all) are slots of their own. So:
 *
 * - atomic, one round trip: getSession (read + touch, one script; without an idle timeout one
 *   MGET; on standalone and Sentinel the one command is shared with the other sessions read in the
 *   same tick, command-per-tick.ts), and each single-slot step below;
 * - ordered steps, safe at every step:
 *   create   index first (u, t, all in parallel; u returns the others to replace), then replace
 *            the others (marker first, see mark), then write the record only if nothing holds its
 *            key: a live session is always in the indexes logout-all and kickout read. Two
 *            concurrent is-concurrent=false logins: the u step orders them; the later one marks the
 *            earlier one, and a record not yet written gets its 'replaced' tombstone first (kept
 *            as long as the replacing session's retention), so it never becomes live. Listings
 *            skip an index entry whose record is missing but prune it only once it cannot be a
 *            login still being written (past its deadline / PENDING_GRACE_MS old);
 *   mark     per session: the tombstone (one script), then its index entries;
 *   delete   the record (one script), then its index entries;
 *   update   the record (one script, only if active), then the entries of the new record, then
 *            the old entries if the user or token id changed;
 *   patch    read the record, then compare-and-set the patched one (one script, TTL kept); the user and
 *            token id never change, so no index does;
 *   listByUser / listPage / findByTokenId   read the index, then each session's slot; entries
 *            whose session is gone (for the online index: or past its expiry) are pruned afterwards
 *            (online-listing.ts: what a page costs).
 *   A step that fails leaves at most an index entry without a live session (pruned when met).
 *
 * Time: `now` arguments come from the app Clock (never Redis TIME). Retention is a Redis PX TTL.
 */
import type {
  Admission,
  CreateSessionInput,
  CreateSessionResult,
  ListedSession,
  OnlinePage,
  UserSessionPage,
  UserSessionQuery,
  OnlineQuery,
  SessionStore,
} from '../../application/ports/session-store';
import type { SessionRecord, StoredSession, TombstoneState } from '../../domain/session';
import { applySessionPatch, type SessionPatch } from '../../domain/session-patch';
import { bySessionAge, normTtl } from '../store-common';
import type { KeyLayoutKind } from './key-layout';
import type { LuaScript } from './lua-scripts';
import { isCluster, type RedisClient } from './redis-client';
import { CommandPerTick } from './command-per-tick';
import { ScriptedRedisStore } from './scripted-store';
import { decodeStored, parseLastActive, parseRecord } from './session-codec';
import { type CandidateFilter, OnlineListing } from './online-listing';
import { OnlineIndexSweeper, type SweeperDeps } from './online-sweeper';
import { activeRecord, current, PENDING_GRACE_MS, SessionIndexes } from './session-indexes';
import { type IndexEntry, SessionReads } from './session-reads';
import { type EndOptions, SessionEnds } from './session-ends';

const SCRIPTS = {
  agSessionTouch: { file: 'session-touch.lua', keys: 2, sessionLib: true },
  agSessionTouchMany: { file: 'session-touch-many.lua', keys: 'counted', sessionLib: true },
  agSessionWrite: { file: 'session-write.lua', keys: 2, sessionLib: true },
  agSessionReplace: { file: 'session-replace.lua', keys: 2, sessionLib: true },
  agSessionPatch: { file: 'session-patch.lua', keys: 1, sessionLib: true },
  agSessionRemove: { file: 'session-remove.lua', keys: 2, sessionLib: true },
  agSessionTombstone: { file: 'session-tombstone.lua', keys: 2, sessionLib: true },
  agSessionTombstoneMany: { file: 'session-tombstone.lua', keys: 'counted', sessionLib: true, perItem: { keys: 2, args: 4 } },
  agSessionRemoveMany: { file: 'session-remove.lua', keys: 'counted', sessionLib: true, perItem: { keys: 2, args: 0 } },
  agSessionIndexUser: { file: 'session-index-user.lua', keys: 2, sessionLib: true },
  agSessionUnindexUser: { file: 'session-unindex-user.lua', keys: 2 },
  agSessionDropToken: { file: 'kv-delete-if-equals.lua', keys: 1 },
  agSessionUserPage: { file: 'session-user-page.lua', keys: 2 },
  agSessionFilter: { file: 'session-filter.lua', keys: 'counted' },
  agSessionDropTokenMany: { file: 'kv-delete-if-equals.lua', keys: 'counted', perItem: { keys: 1, args: 1 } },
} satisfies Record<string, LuaScript>;

/** How many compare-and-set rounds a patch tries before it gives up. */
const PATCH_ATTEMPTS = 8;

/** A session's record and last-active keys. */
type SessionKeys = readonly [string, string];
/** Their values, in order. */
type ReadReply = ReadonlyArray<string | null>;
/** The read-and-touch script's arguments for one session: its keys, now, the idle limit. */
type TouchArgs = readonly [string, string, string, string];
/** What session-touch.lua answers for one session: nil, [tombstone or unreadable value] or [json, lastActive]. */
type TouchReply = ReadonlyArray<string | null> | null;

/** Retention as the scripts take it: whole ms, or '' for none. */
function retentionArg(retentionMs: number | null): string {
  return retentionMs === null ? '' : String(normTtl(retentionMs));
}

export class RedisSessionStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements SessionStore {
  private readonly indexes: SessionIndexes;
  private readonly online: OnlineListing;
  private readonly ends: SessionEnds;
  private readonly reads: SessionReads;

  /**
   * Reads a session's two keys (MGET), and reads and touches a session (the read-and-touch script).
   * On standalone and Sentinel the reads of one tick share one command (command-per-tick.ts); on a cluster
   * and in the tagged layout, whose sessions span slots, each is a command of its own.
   */
  private readonly readKeys: (keys: SessionKeys) => Promise<ReadReply>;
  private readonly readAndTouch: (args: TouchArgs) => Promise<TouchReply>;

  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
    const oneConnection = !isCluster(client) && this.keys.kind === 'plain';
    const sessionReads = new SessionReads(client, this.keys, oneConnection);
    this.reads = sessionReads;
    this.indexes = new SessionIndexes(client, this.keys, this.run, sessionReads, oneConnection);
    this.ends = new SessionEnds(this.keys, this.run, this.indexes, oneConnection);
    this.online = new OnlineListing(client, this.keys, sessionReads, oneConnection ? this.candidates : undefined);
    if (!oneConnection) {
      this.readKeys = ([s, a]) => client.mget(s, a);
      this.readAndTouch = (args) => this.run('agSessionTouch', ...args) as Promise<TouchReply>;
      return;
    }
    const reads = new CommandPerTick(async (items: readonly SessionKeys[]) => {
      const values = await client.mget(items.flat());
      return items.map((_, i): ReadReply => [values[2 * i] ?? null, values[2 * i + 1] ?? null]);
    });
    const touches = new CommandPerTick(async (items: readonly TouchArgs[]) => {
      const keys: string[] = [];
      const args: string[] = [];
      for (const [s, a, now, idle] of items) {
        keys.push(s, a);
        args.push(now, idle);
      }
      return (await this.run('agSessionTouchMany', keys.length, ...keys, ...args)) as TouchReply[];
    });
    this.readKeys = (keys) => reads.run(keys);
    this.readAndTouch = (args) => touches.run(args);
  }

  /** The online list's filter in Redis (session-filter.lua): which entries' records may hold the needles. */
  private readonly candidates: CandidateFilter = async (type, entries, needles) => {
    const keys = entries.map((e) => this.keys.session(type, e.hash));
    const hits = (await this.run('agSessionFilter', keys.length, ...keys, ...needles)) as number[];
    return hits.map((i) => entries[i - 1] as IndexEntry);
  };

  async create(input: CreateSessionInput): Promise<CreateSessionResult> {
    const { loginType: type, tokenHash: hash, record, now } = input;
    const ret = retentionArg(input.retentionMs);
    const userId = record.principal.userId;
    const admitted = await this.admit(type, hash, record, ret, now, input.admission);
    if (admitted === null) return { outcome: 'refused', ended: [] };
    const k = this.keys;
    // The others end (marker first) while the record is written: different slots, no order between
    // them. 0 from the write: a concurrent login ended this one before its record was written; its
    // token reads as that login left it, exactly as if the end had come a moment later.
    const [ended, written] = await Promise.all([
      this.endMany(type, admitted, { now, userId, ret }),
      this.run('agSessionWrite', k.session(type, hash), k.lastActive(type, hash), JSON.stringify(record), String(now), ret),
    ]);
    await Promise.all([ended.unindex(), this.indexes.sampleBucket(type, hash, now)]);
    return { outcome: written === 1 ? 'created' : 'ended', ended: ended.sessions };
  }

  /**
   * The admission step; null when an exclusive admission is refused by a session that is live or
   * may be a login still being written. Refusals by sessions found dead (a logout or an end whose
   * index cleanup has not run yet) drop those entries and ask again.
   */
  private async admit(type: string, hash: string, record: SessionRecord, ret: string, now: number, admission: Admission) {
    for (let attempt = 0; ; attempt++) {
      const admitted = await this.indexes.admit(type, hash, record, ret, now, admission);
      if (admitted.refused === undefined) return admitted.end;
      const found = await Promise.all(
        admitted.refused.map(async (e) => ({ e, stored: decodeStored(await this.client.get(this.keys.session(type, e.hash))) })),
      );
      const live = found.filter(({ e, stored }) =>
        stored === null ? e.createdAt >= now - PENDING_GRACE_MS : stored.state === 'active' && current(stored.record, now),
      );
      if (live.length > 0 || attempt >= 2) return null;
      await this.indexes.unindexUser(
        type,
        record.principal.userId,
        found.map(({ e }) => e.hash),
      );
    }
  }

  async getSession(type: string, hash: string, now: number, idleLimitMs: number | null): Promise<StoredSession | null> {
    const sKey = this.keys.session(type, hash);
    const aKey = this.keys.lastActive(type, hash);
    // One slot: the record and its last-active time; MGET without an idle limit, else the script.
    const reply =
      idleLimitMs === null ? await this.readKeys([sKey, aKey]) : await this.readAndTouch([sKey, aKey, String(now), String(idleLimitMs)]);
    if (reply === null) return null;
    const [value, lastRaw] = reply;
    const stored = decodeStored(value);
    if (stored === null || stored.state !== 'active') return stored;
    return { ...stored, lastActiveAt: parseLastActive(lastRaw, stored.record) };
  }

  async update(type: string, hash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const k = this.keys;
    const ret = retentionArg(retentionMs);
    const oldRaw = await this.run('agSessionReplace', k.session(type, hash), k.lastActive(type, hash), JSON.stringify(record), ret);
    if (typeof oldRaw !== 'string') return false;
    await this.indexes.reindex(type, hash, record, ret);
    const old = parseRecord(oldRaw);
    if (old !== null) {
      const movedUser = old.principal.userId !== record.principal.userId;
      const movedToken = old.tokenId !== record.tokenId;
      if (movedUser || movedToken) await this.indexes.removeMoved(type, hash, old, { user: movedUser, token: movedToken });
    }
    return true;
  }

  /**
   * Read the record, patch it, compare-and-set it (one script); when another write landed in between, again on the
   * record it wrote. A record that keeps changing under the patch (not expected: a session's writers are its own
   * requests and role changes) ends the attempts with an error rather than with a write over a newer record.
   */
  async patch(type: string, hash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    const sKey = this.keys.session(type, hash);
    for (let attempt = 0; attempt < PATCH_ATTEMPTS; attempt++) {
      const raw = await this.client.get(sKey);
      const stored = decodeStored(raw);
      if (raw === null || stored?.state !== 'active') return null;
      const next = applySessionPatch(stored.record, change(stored.record));
      const written = Number(await this.run('agSessionPatch', sKey, raw, JSON.stringify(next)));
      if (written === 1) return next;
      if (written === -1) return null;
    }
    throw new Error(`session record changed under ${PATCH_ATTEMPTS} patch attempts in a row`);
  }

  /** The removals of one tick share one script (standalone, Sentinel) and their index removals are grouped (session-ends.ts). */
  async deleteSession(type: string, hash: string): Promise<boolean> {
    const v = await this.ends.remove(type, hash);
    if (v === null) return false;
    await this.ends.unindex(type, { hash, record: activeRecord(v) });
    return true;
  }

  /** In rounds of chunks (session-ends.ts): the removals of a chunk as one script on one server, their index entries grouped. */
  async deleteMany(type: string, tokenHashes: readonly string[]): Promise<number> {
    return this.ends.removeMany(type, tokenHashes);
  }

  async mark(type: string, tokenHashes: readonly string[], state: TombstoneState): Promise<number> {
    if (tokenHashes.length === 0) return 0;
    const ended = await this.endMany(
      type,
      tokenHashes.map((hash) => ({ hash, state })),
      {},
    );
    await ended.unindex();
    return ended.changed;
  }

  async listByUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    return (await this.indexes.listUser(type, userId, now)).sort(bySessionAge);
  }
  /** Paged in Redis: the user's index decides the page, only its records are read (session-indexes.ts userPage). */
  async listUserPage(type: string, userId: string, now: number, query: UserSessionQuery): Promise<UserSessionPage> {
    return this.indexes.userPage(type, userId, now, query);
  }

  async listPage(type: string, now: number, query: OnlineQuery): Promise<OnlinePage> {
    const limit = Math.floor(query.limit);
    const offset = Math.max(0, Math.floor(query.offset));
    if (!(limit > 0)) return { sessions: [], total: 0, totalExact: false };
    return this.online.page(type, now, { ...query, limit, offset });
  }

  /** The online index's background sweeper (online-sweeper.ts): the composition root starts it and stops it on close. */
  indexSweeper(deps: Pick<SweeperDeps, 'now' | 'onError' | 'batch'>): OnlineIndexSweeper {
    return new OnlineIndexSweeper({ ...deps, client: this.client, keys: this.keys, reads: this.reads, listing: this.online });
  }

  async findByTokenId(type: string, tokenId: string): Promise<string | null> {
    const hash = await this.client.get(this.keys.tokenId(type, tokenId));
    if (hash === null) return null;
    return activeRecord(await this.client.get(this.keys.session(type, hash))) === null ? null : hash;
  }

  private endMany(type: string, targets: ReadonlyArray<{ readonly hash: string; readonly state: TombstoneState }>, opts: EndOptions) {
    return this.ends.endMany(type, targets, opts);
  }
}
