/**
 * SessionStore on Redis, cluster-safe (key-layout.ts): every script runs on keys of one slot and
 * builds no key name. A session is ONE key (s: record and last-active time, or a one-letter
 * tombstone; a session of the previous release: its s and a keys, one slot; session-values.ts); the
 * indexes (user u, online bucket all; token id t for the previous layout) are slots of their own. So:
 *
 * - atomic, one round trip: getSession (read + touch, one script; without an idle timeout one
 *   GET; on standalone and Sentinel the one command is shared with the other sessions read in the
 *   same tick, command-per-tick.ts; a session not found under its key is looked for in the previous
 *   layout with a second command), and each single-slot step below;
 * - ordered steps, safe at every step:
 *   create   index first (u, all in parallel; u returns the others to replace), then replace
 *            the others (marker first, see mark), then write the record only if nothing holds its
 *            key: a live session is always in the indexes logout-all and kickout read. Two
 *            concurrent is-concurrent=false logins: the u step orders them; the later one marks the
 *            earlier one, and a record not yet written gets its 'replaced' tombstone first (kept
 *            as long as the replacing session's retention), so it never becomes live. Listings
 *            skip an index entry whose record is missing but prune it only once it cannot be a
 *            login still being written (past its deadline / PENDING_GRACE_MS old);
 *   mark     per session: the tombstone (one script; kept session.tombstone-retention at most), then
 *            its index entries;
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
import type { SessionPatch } from '../../domain/session-patch';
import { bySessionAge, normTtl } from '../store-common';
import type { KeyLayoutKind } from './key-layout';
import type { LuaScript } from './lua-scripts';
import { isCluster, type RedisClient } from './redis-client';
import { ScriptedRedisStore } from './scripted-store';
import { type CandidateFilter, OnlineListing } from './online-listing';
import { OnlineIndexSweeper, type SweeperDeps } from './online-sweeper';
import { activeRecord, current, PENDING_GRACE_MS, SessionIndexes } from './session-indexes';
import { type IndexEntry, SessionReads } from './session-reads';
import { type EndOptions, SessionEnds } from './session-ends';
import { SESSION_VALUE_SCRIPTS, SessionValues } from './session-values';

const SCRIPTS = {
  ...SESSION_VALUE_SCRIPTS,
  agSessionIndexUser: { file: 'session-index-user.lua', keys: 2, sessionLib: true },
  agSessionUnindexUser: { file: 'session-unindex-user.lua', keys: 2 },
  agSessionDropToken: { file: 'kv-delete-if-equals.lua', keys: 1 },
  agSessionTombstoneMany: { file: 'session-tombstone.lua', keys: 'counted', sessionLib: true, perItem: { keys: 2, args: 5 } },
  agSessionRemoveMany: { file: 'session-remove.lua', keys: 'counted', sessionLib: true, perItem: { keys: 2, args: 1 } },
  agSessionUserPage: { file: 'session-user-page.lua', keys: 2 },
  agSessionFilter: { file: 'session-filter.lua', keys: 'counted' },
  agSessionDropTokenMany: { file: 'kv-delete-if-equals.lua', keys: 'counted', perItem: { keys: 1, args: 1 } },
} satisfies Record<string, LuaScript>;

/** Retention as the scripts take it: whole ms, or '' for none. */
function retentionArg(retentionMs: number | null): string {
  return retentionMs === null ? '' : String(normTtl(retentionMs));
}

/** How long a tombstone is kept by default (session.tombstone-retention's default): one day. */
export const DEFAULT_TOMBSTONE_RETENTION_MS = 86_400_000;

export interface RedisSessionStoreOptions {
  /** At most how long a tombstone ('kicked-out', 'replaced', 'logged-out') is kept, in ms; null: the session's own TTL. */
  readonly tombstoneRetentionMs?: number | null;
}

export class RedisSessionStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements SessionStore {
  private readonly indexes: SessionIndexes;
  private readonly online: OnlineListing;
  /** The session's own key (and the previous layout's): read, touch, write, tombstone (session-values.ts). */
  private readonly values: SessionValues;
  private readonly ends: SessionEnds;
  private readonly reads: SessionReads;

  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind, options: RedisSessionStoreOptions = {}) {
    super(client, keyPrefix, SCRIPTS, layout);
    const oneConnection = !isCluster(client) && this.keys.kind === 'plain';
    const sessionReads = new SessionReads(client, this.keys, oneConnection);
    this.reads = sessionReads;
    this.indexes = new SessionIndexes(client, this.keys, this.run, sessionReads, oneConnection);
    this.online = new OnlineListing(client, this.keys, sessionReads, oneConnection ? this.candidates : undefined);
    const tombstoneRetention = options.tombstoneRetentionMs === undefined ? DEFAULT_TOMBSTONE_RETENTION_MS : options.tombstoneRetentionMs;
    this.values = new SessionValues(client, this.keys, this.run, oneConnection, tombstoneRetention);
    const tombRet = tombstoneRetention === null ? '' : String(tombstoneRetention);
    this.ends = new SessionEnds(this.keys, this.run, this.indexes, oneConnection, this.values, tombRet);
  }

  /**
   * The online list's filter in Redis (session-filter.lua): which entries' records may hold the needles. A session
   * whose one key is missing (one of the previous layout, or gone) is a candidate: the listing reads and checks it.
   */
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
    // The others end (marker first) while the record is written: different slots, no order between
    // them. false from the write: a concurrent login ended this one before its record was written; its
    // token reads as that login left it, exactly as if the end had come a moment later.
    const [ended, written] = await Promise.all([
      this.endMany(type, admitted, { now, userId, ret }),
      this.values.write(type, hash, record, now, ret),
    ]);
    await Promise.all([ended.unindex(), this.indexes.sampleBucket(type, hash, now)]);
    return { outcome: written ? 'created' : 'ended', ended: ended.sessions };
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
      const found = await Promise.all(admitted.refused.map(async (e) => ({ e, stored: await this.values.peek(type, e.hash) })));
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
    return this.values.read(type, hash, now, idleLimitMs);
  }

  async update(type: string, hash: string, record: SessionRecord, retentionMs: number | null): Promise<boolean> {
    const ret = retentionArg(retentionMs);
    const oldRaw = await this.values.replace(type, hash, record, ret);
    if (oldRaw === null) return false;
    await this.indexes.reindex(type, hash, record, ret);
    const old = activeRecord(oldRaw);
    if (old !== null) {
      const movedUser = old.principal.userId !== record.principal.userId;
      const movedToken = old.tokenId !== record.tokenId;
      if (movedUser || movedToken) await this.indexes.removeMoved(type, hash, old, { user: movedUser, token: movedToken });
    }
    return true;
  }

  /** Read the record, patch it, compare-and-set it (one script); see SessionValues.patch. */
  async patch(type: string, hash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    return this.values.patch(type, hash, change);
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
    return this.values.findByTokenId(type, tokenId);
  }

  private endMany(type: string, targets: ReadonlyArray<{ readonly hash: string; readonly state: TombstoneState }>, opts: EndOptions) {
    return this.ends.endMany(type, targets, opts);
  }
}
