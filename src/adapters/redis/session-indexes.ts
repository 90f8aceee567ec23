/**
 * The index half of RedisSessionStore: the per-user index (u), the short-token-id key (t) and the
 * buckets of the per-type online index (all). Each lives in a slot of its own (key-layout.ts),
 * so every method here is single-key commands or one single-key script. Callers order these
 * steps around the session's own (single-slot) script: index before a record is written, marker
 * before an index entry is removed.
 */
import type { Admission, ListedSession, UserSessionPage, UserSessionQuery } from '../../application/ports/session-store';
import { DEFAULT_DEVICE_TYPE, sessionDeviceType } from '../../domain/device-type';
import type { SessionRecord, TombstoneState } from '../../domain/session';
import { type RedisKeys, SESSION_ID_HEX } from './key-layout';
import type { ScriptRunner } from './lua-scripts';
import type { RedisClient } from './redis-client';
import { current, type Found, isDead, pairs, PENDING_GRACE_MS, type SessionReads } from './session-reads';

export { activeRecord, current, PENDING_GRACE_MS } from './session-reads';

/**
 * What the user's index decided: the sessions to end (each with its tombstone), or, for a refused
 * exclusive admission, the current sessions that refused it (with their createdAt: a missing record
 * younger than PENDING_GRACE_MS may be a login still being written).
 */
export type Admitted =
  | { readonly end: ReadonlyArray<{ readonly hash: string; readonly state: TombstoneState }>; readonly refused?: undefined }
  | { readonly refused: ReadonlyArray<{ readonly hash: string; readonly createdAt: number }> };

/**
 * Whether a session has a token-id key: not when its token id is its key id (the first 32 hex digits of
 * its hash, as every login writes it: findByTokenId reads the session key it names); yes for the
 * previous layout's 16-hex ids and any other token id.
 */
function hasTokenKey(hash: string, record: SessionRecord): boolean {
  return record.tokenId !== hash.slice(0, SESSION_ID_HEX);
}

/** The arguments of session-index-user.lua after its two keys. */
function admitArgs(hash: string, record: SessionRecord, ret: string, now: number, a: Admission): string[] {
  const score = ret === '' ? '+inf' : String(now + Number(ret));
  const range = a.kind === 'replace' || a.kind === 'exclusive' ? (a.deviceType ?? '') : '';
  const expiresAt = record.expiresAt === null ? '' : String(Math.floor(record.expiresAt));
  return [
    hash,
    score,
    ret,
    String(now),
    a.kind,
    String(Math.floor(record.createdAt)),
    expiresAt,
    sessionDeviceType(record),
    range,
    a.kind === 'cap' ? String(a.max) : '',
    a.kind === 'cap' ? a.state : '',
    DEFAULT_DEVICE_TYPE,
  ];
}

/** An index entry to remove: the session's hash, its record when known, else its user when known. */
export interface IndexRemoval {
  readonly hash: string;
  readonly record: SessionRecord | null;
  readonly userId?: string | undefined;
}

/** Hashes per unindex script or ZREM, token-id drops per script. */
const REMOVE_CHUNK = 1000;

/** The scripts the indexes run (session-store.ts registers them). */
export type IndexScripts =
  'agSessionIndexUser' | 'agSessionUnindexUser' | 'agSessionDropToken' | 'agSessionDropTokenMany' | 'agSessionUserPage';

export class SessionIndexes {
  /** `oneConnection`: every key is on one server (standalone, Sentinel): the token-id drops of a batch are one script. */
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly run: ScriptRunner<IndexScripts>,
    private readonly reads: SessionReads,
    private readonly oneConnection = false,
  ) {}

  /**
   * Adds the session to its user's index, token-id key and online bucket (in parallel: they are
   * three slots), the user's index deciding the login's admission in the same step
   * (session-index-user.lua). A refused exclusive admission leaves the token-id key and the online
   * entry it wrote taken back.
   */
  async admit(type: string, hash: string, record: SessionRecord, ret: string, now: number, admission: Admission): Promise<Admitted> {
    const k = this.keys;
    const userId = record.principal.userId;
    const tokenKey = hasTokenKey(hash, record) ? k.tokenId(type, record.tokenId) : null;
    const [reply] = await Promise.all([
      this.run('agSessionIndexUser', k.user(type, userId), k.userMeta(type, userId), ...admitArgs(hash, record, ret, now, admission)),
      tokenKey === null ? null : ret === '' ? this.client.set(tokenKey, hash) : this.client.set(tokenKey, hash, 'PX', ret),
      this.client.zadd(k.all(type, hash), String(record.createdAt), hash),
    ]);
    const [verdict, list, candidates] = reply as [string, string[], string[]];
    const prune = this.pruneUser(
      type,
      userId,
      candidates.filter((h) => h !== hash),
    );
    if (verdict === 'refused') {
      await Promise.all([
        prune,
        tokenKey === null ? null : this.run('agSessionDropToken', tokenKey, hash),
        this.client.zrem(k.all(type, hash), hash),
      ]);
      return { refused: pairs(list).map((e) => ({ hash: e.hash, createdAt: e.score })) };
    }
    await prune;
    if (admission.kind !== 'cap') return { end: list.map((h) => ({ hash: h, state: 'replaced' as const })) };
    const end: Array<{ hash: string; state: TombstoneState }> = [];
    for (let i = 0; i + 1 < list.length; i += 2) end.push({ hash: list[i] as string, state: list[i + 1] as TombstoneState });
    return { end };
  }

  /** Re-indexes an updated session (its new retention and expiry; its place in its user's order kept). */
  async reindex(type: string, hash: string, record: SessionRecord, ret: string): Promise<void> {
    await this.admit(type, hash, record, ret, Date.now(), { kind: 'add' });
  }

  /** Drops index entries of the user (both halves of the user's index at once). */
  async unindexUser(type: string, userId: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    await this.run('agSessionUnindexUser', this.keys.user(type, userId), this.keys.userMeta(type, userId), ...hashes);
  }

  /** Removes the entries of a session whose record is `record` (or, without one, what can be found by hash). */
  async remove(type: string, hash: string, record: SessionRecord | null, userId?: string): Promise<void> {
    await this.removeMany(type, [{ hash, record, userId }]);
  }

  /**
   * Removes the index entries of many sessions, grouped by index key: one ZREM per online bucket
   * (and where earlier releases put the entries: the legacy index, a previous bucket; onlineKeysOf), one unindex
   * script per user, the token-id drops as one
   * script per REMOVE_CHUNK on one server, else one command each (each its own slot).
   */
  async removeMany(type: string, items: readonly IndexRemoval[]): Promise<void> {
    if (items.length === 0) return;
    const k = this.keys;
    const buckets = new Map<string, string[]>();
    const users = new Map<string, string[]>();
    const tokens: string[] = [];
    for (const { hash, record, userId } of items) {
      for (const key of k.onlineKeysOf(type, hash)) buckets.set(key, [...(buckets.get(key) ?? []), hash]);
      const user = record?.principal.userId ?? userId;
      if (user !== undefined) users.set(user, [...(users.get(user) ?? []), hash]);
      if (record !== null && hasTokenKey(hash, record)) tokens.push(k.tokenId(type, record.tokenId), hash);
    }
    const work: Array<Promise<unknown>> = [];
    for (const [key, hashes] of buckets) for (const c of chunks(hashes)) work.push(this.client.zrem(key, ...c));
    for (const [user, hashes] of users) for (const c of chunks(hashes)) work.push(this.unindexUser(type, user, c));
    if (this.oneConnection) {
      for (const c of chunks(tokens, 2 * REMOVE_CHUNK)) work.push(this.run('agSessionDropTokenMany', c.length / 2, ...keysThenArgs(c)));
    } else {
      for (let i = 0; i < tokens.length; i += 2) work.push(this.run('agSessionDropToken', tokens[i] as string, tokens[i + 1] as string));
    }
    await Promise.all(work);
  }

  /** After an update moved the session to another user or token id: removes the old entries. */
  async removeMoved(type: string, hash: string, old: SessionRecord, moved: { user: boolean; token: boolean }): Promise<void> {
    const k = this.keys;
    await Promise.all([
      moved.user ? this.unindexUser(type, old.principal.userId, [hash]) : null,
      moved.token && hasTokenKey(hash, old) ? this.run('agSessionDropToken', k.tokenId(type, old.tokenId), hash) : null,
    ]);
  }

  /** Drops the user-index entries among `hashes` whose session is gone (missing, tombstone, corrupt). */
  private async pruneUser(type: string, userId: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    const found = await this.reads.find(type, hashes);
    const dead = hashes.filter((_, i) => found[i]?.kind !== 'active');
    if (dead.length === 0) return;
    await this.removeMany(
      type,
      dead.map((hash) => ({ hash, record: null, userId })),
    );
  }

  /**
   * The user's current sessions. Prunes entries whose session is a tombstone or corrupt, or
   * missing past its retention deadline (the score): a missing record before that may be a login
   * still being written.
   */
  async listUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    const userKey = this.keys.user(type, userId);
    const entries = pairs(await this.client.zrange(userKey, 0, -1, 'WITHSCORES'));
    const found = await this.reads.find(
      type,
      entries.map((e) => e.hash),
    );
    const dead = entries.filter((e, i) => isDead(found[i] as Found, e.score < now));
    await this.unindexUser(
      type,
      userId,
      dead.map((e) => e.hash),
    );
    return found.flatMap((f) => (f.kind === 'active' && current(f.session.record, now) ? [f.session] : []));
  }

  /**
   * A page of the user's current sessions (oldest first) and their count: the index decides the
   * page in one script (session-user-page.lua, over the user's index and its metadata), then only
   * the page's records are read. An entry on the page found ended meanwhile is left out (and
   * pruned) and not counted; one ended elsewhere counts until a listing meets it.
   */
  async userPage(type: string, userId: string, now: number, q: UserSessionQuery): Promise<UserSessionPage> {
    const k = this.keys;
    const [offset, limit] = [Math.max(0, Math.floor(q.offset)), Math.max(0, Math.floor(q.limit))];
    const args = [String(now), String(offset), String(limit), q.deviceType ?? '', DEFAULT_DEVICE_TYPE];
    const [total, ...hashes] = (await this.run('agSessionUserPage', k.user(type, userId), k.userMeta(type, userId), ...args)) as [
      number,
      ...string[],
    ];
    const found = await this.reads.find(type, hashes);
    const sessions = found.flatMap((f) => (f.kind === 'active' && current(f.session.record, now) ? [f.session] : []));
    const dead = hashes.filter((_, i) => (found[i] as Found).kind === 'dead');
    await this.unindexUser(type, userId, dead);
    return { sessions, total: Math.max(sessions.length, Number(total) - (hashes.length - sessions.length)) };
  }

  /** A bounded random sample of the session's online bucket: entries whose session is gone or past its expiry are dropped. */
  async sampleBucket(type: string, hash: string, now: number): Promise<void> {
    const bucket = this.keys.all(type, hash);
    const sample = pairs((await this.client.zrandmember(bucket, 3, 'WITHSCORES')) as string[]).filter((e) => e.hash !== hash);
    if (sample.length === 0) return;
    const found = await this.reads.find(
      type,
      sample.map((e) => e.hash),
    );
    const dead = sample.filter((e, i) => offline(found[i] as Found, e.score, now));
    if (dead.length > 0) await this.client.zrem(bucket, ...dead.map((e) => e.hash));
  }
}

/**
 * Whether an online-index entry (score = createdAt) is to go: its session ended (tombstone, corrupt,
 * missing once it cannot be a login still being written) or is past its expiry (its record stays,
 * to answer token-expired, but it is online no more).
 */
export function offline(f: Found, score: number, now: number): boolean {
  return f.kind === 'active' ? !current(f.session.record, now) : isDead(f, score < now - PENDING_GRACE_MS);
}

/** `list` in chunks of `size`. */
function chunks<T>(list: readonly T[], size = REMOVE_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** [k1, v1, k2, v2, ...] as [k1, k2, ..., v1, v2, ...] (a per-item script's KEYS, then its ARGV). */
function keysThenArgs(pairs: readonly string[]): string[] {
  const keys: string[] = [];
  const args: string[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    keys.push(pairs[i] as string);
    args.push(pairs[i + 1] as string);
  }
  return [...keys, ...args];
}
