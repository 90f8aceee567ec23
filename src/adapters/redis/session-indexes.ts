/**
 * The index half of RedisSessionStore: the per-user index (u), the short-token-id key (t) and the
 * buckets of the per-type online index (all). Each lives in a slot of its own (key-layout.ts),
 * so every method here is single-key commands or one single-key script. Callers order these
 * steps around the session's own (single-slot) script: index before a record is written, marker
 * before an index entry is removed.
 */
import type { ListedSession } from '../../application/ports/session-store';
import type { SessionRecord } from '../../domain/session';
import type { RedisKeys } from './key-layout';
import type { ScriptRunner } from './lua-scripts';
import { decodeStored, parseLastActive } from './session-codec';
import type { RedisClient } from './redis-client';

/** The record of an active session, or null for a missing key, a tombstone or corrupt data. */
export function activeRecord(value: string | null | undefined): SessionRecord | null {
  const stored = decodeStored(value);
  return stored?.state === 'active' ? stored.record : null;
}

/**
 * How long an index entry whose session record is missing may be a login still being written
 * (indexed, record not yet there) rather than dead. Missing records younger than this are
 * skipped by listings but never pruned: pruning them would leave that login live and unlisted.
 */
export const PENDING_GRACE_MS = 60_000;

/** One index entry as read back: its listed session, or why not. */
type Found = { readonly kind: 'active'; readonly session: ListedSession } | { readonly kind: 'missing' } | { readonly kind: 'dead' };

/** Orders two online-index entries as one sorted set would: score, then member. */
const byScoreThenMember = (a: IndexEntry, b: IndexEntry): number => a.score - b.score || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

interface IndexEntry {
  readonly hash: string;
  readonly score: number;
}

/**
 * One bucket of the online index, read a page at a time from just after the last entry taken, by
 * (score, member): logouts or logins between pages neither skip nor repeat an entry.
 */
class BucketCursor {
  private page: IndexEntry[] = [];
  private last: IndexEntry | null = null;
  /** Entries taken at the last score (a page must reach past them). */
  private atLastScore = 0;
  private done = false;

  constructor(
    private readonly client: RedisClient,
    readonly key: string,
  ) {}

  /** The next entry without taking it (null once the bucket is exhausted). */
  async peek(): Promise<IndexEntry | null> {
    while (this.page.length === 0 && !this.done) await this.fill();
    return this.page[0] ?? null;
  }

  private async fill(): Promise<void> {
    const last = this.last;
    const count = 100 + this.atLastScore;
    const min = last === null ? '-inf' : String(last.score);
    const flat = await this.client.zrange(this.key, min, '+inf', 'BYSCORE', 'LIMIT', 0, count, 'WITHSCORES');
    if (flat.length < 2 * count) this.done = true;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const e = { hash: flat[i] as string, score: Number(flat[i + 1]) };
      if (last === null || byScoreThenMember(e, last) > 0) this.page.push(e);
    }
    if (this.page.length === 0 && !this.done) this.atLastScore += 100;
  }

  take(): void {
    const e = this.page.shift();
    if (e === undefined) return;
    this.atLastScore = this.last !== null && this.last.score === e.score ? this.atLastScore + 1 : 1;
    this.last = e;
  }
}

export class SessionIndexes {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly run: ScriptRunner<'agSessionIndexUser' | 'agSessionDropToken'>,
  ) {}

  /**
   * Adds the session to its user's index, token-id key and online bucket (in parallel: they are
   * three slots). Returns the user's other sessions when `replaceOthers`.
   */
  async add(type: string, hash: string, record: SessionRecord, ret: string, now: number, replaceOthers: boolean): Promise<string[]> {
    const k = this.keys;
    const uScore = ret === '' ? '+inf' : String(now + Number(ret));
    const userKey = k.user(type, record.principal.userId);
    const [reply] = await Promise.all([
      this.run('agSessionIndexUser', userKey, hash, uScore, ret, String(now), replaceOthers ? '1' : '0') as Promise<[string[], string[]]>,
      ret === ''
        ? this.client.set(k.tokenId(type, record.tokenId), hash)
        : this.client.set(k.tokenId(type, record.tokenId), hash, 'PX', ret),
      this.client.zadd(k.all(type, hash), String(record.createdAt), hash),
    ]);
    const [others, candidates] = reply;
    await this.pruneUser(
      type,
      userKey,
      candidates.filter((h) => h !== hash),
    );
    return others;
  }

  /** Removes the entries of a session whose record is `record` (or, without one, what can be found by hash). */
  async remove(type: string, hash: string, record: SessionRecord | null, userId?: string): Promise<void> {
    const k = this.keys;
    const user = record?.principal.userId ?? userId;
    await Promise.all([
      this.client.zrem(k.all(type, hash), hash),
      user === undefined ? null : this.client.zrem(k.user(type, user), hash),
      record === null ? null : this.run('agSessionDropToken', k.tokenId(type, record.tokenId), hash),
    ]);
  }

  /** After an update moved the session to another user or token id: removes the old entries. */
  async removeMoved(type: string, hash: string, old: SessionRecord, moved: { user: boolean; token: boolean }): Promise<void> {
    const k = this.keys;
    await Promise.all([
      moved.user ? this.client.zrem(k.user(type, old.principal.userId), hash) : null,
      moved.token ? this.run('agSessionDropToken', k.tokenId(type, old.tokenId), hash) : null,
    ]);
  }

  /** Drops the user-index entries among `hashes` whose session is gone (missing, tombstone, corrupt). */
  private async pruneUser(type: string, userKey: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    const values = await Promise.all(hashes.map((h) => this.client.get(this.keys.session(type, h))));
    const dead = hashes.filter((_, i) => activeRecord(values[i]) === null);
    if (dead.length === 0) return;
    await Promise.all([this.client.zrem(userKey, ...dead), ...dead.map((h) => this.client.zrem(this.keys.all(type, h), h))]);
  }

  /** Each hash's session as found: active (listed), missing, or dead (tombstone, corrupt); one MGET per session slot. */
  private async find(type: string, hashes: readonly string[]): Promise<Found[]> {
    const k = this.keys;
    const replies = await Promise.all(hashes.map((h) => this.client.mget(k.session(type, h), k.lastActive(type, h))));
    return replies.map(([value, last], i): Found => {
      if (value === null || value === undefined) return { kind: 'missing' };
      const record = activeRecord(value);
      if (record === null) return { kind: 'dead' };
      return { kind: 'active', session: { tokenHash: hashes[i] as string, record, lastActiveAt: parseLastActive(last, record) } };
    });
  }

  /**
   * The user's current sessions. Prunes entries whose session is a tombstone or corrupt, or
   * missing past its retention deadline (the score): a missing record before that may be a login
   * still being written.
   */
  async listUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    const userKey = this.keys.user(type, userId);
    const entries = pairs(await this.client.zrange(userKey, 0, -1, 'WITHSCORES'));
    const found = await this.find(
      type,
      entries.map((e) => e.hash),
    );
    const dead = entries.filter((e, i) => isDead(found[i] as Found, e.score < now));
    if (dead.length > 0) await this.client.zrem(userKey, ...dead.map((e) => e.hash));
    return found.flatMap((f) => (f.kind === 'active' && current(f.session.record, now) ? [f.session] : []));
  }

  /**
   * Current sessions of a login type, oldest first (createdAt, then hash), at most `limit`: the
   * buckets merged in order, read page by page; dead entries are pruned batch by batch (a
   * missing record only once its createdAt is PENDING_GRACE_MS old).
   */
  async listAll(type: string, now: number, limit: number): Promise<ListedSession[]> {
    const cursors = Array.from({ length: this.keys.buckets }, (_, n) => new BucketCursor(this.client, this.keys.allBucket(type, n)));
    const out: ListedSession[] = [];
    while (out.length < limit) {
      const batch = await this.nextInOrder(cursors, limit - out.length);
      if (batch.length === 0) break;
      const found = await this.find(
        type,
        batch.map((e) => e.hash),
      );
      const dead: IndexEntry[] = [];
      found.forEach((f, i) => {
        const e = batch[i] as IndexEntry;
        if (f.kind === 'active') {
          if (current(f.session.record, now) && out.length < limit) out.push(f.session);
        } else if (isDead(f, e.score < now - PENDING_GRACE_MS)) dead.push(e);
      });
      await this.pruneBuckets(
        type,
        dead.map((e) => e.hash),
      );
    }
    return out;
  }

  /** Removes hashes from their online buckets (one ZREM per bucket). */
  private async pruneBuckets(type: string, hashes: readonly string[]): Promise<void> {
    const byBucket = new Map<string, string[]>();
    for (const h of hashes) {
      const key = this.keys.all(type, h);
      byBucket.set(key, [...(byBucket.get(key) ?? []), h]);
    }
    await Promise.all([...byBucket].map(([key, members]) => this.client.zrem(key, ...members)));
  }

  /** Up to `n` entries taken from the cursors in (score, member) order. */
  private async nextInOrder(cursors: readonly BucketCursor[], n: number): Promise<IndexEntry[]> {
    const taken: IndexEntry[] = [];
    while (taken.length < n) {
      const heads = await Promise.all(cursors.map((c) => c.peek()));
      let best = -1;
      heads.forEach((h, i) => {
        if (h !== null && (best < 0 || byScoreThenMember(h, heads[best] as IndexEntry) < 0)) best = i;
      });
      if (best < 0) break;
      taken.push(heads[best] as IndexEntry);
      (cursors[best] as BucketCursor).take();
    }
    return taken;
  }

  /** A bounded random sample of the session's online bucket: entries whose session is gone are dropped. */
  async sampleBucket(type: string, hash: string, now: number): Promise<void> {
    const bucket = this.keys.all(type, hash);
    const sample = pairs((await this.client.zrandmember(bucket, 3, 'WITHSCORES')) as string[]).filter((e) => e.hash !== hash);
    if (sample.length === 0) return;
    const found = await this.find(
      type,
      sample.map((e) => e.hash),
    );
    const dead = sample.filter((e, i) => isDead(found[i] as Found, e.score < now - PENDING_GRACE_MS));
    if (dead.length > 0) await this.client.zrem(bucket, ...dead.map((e) => e.hash));
  }
}

/** [member, score, ...] as entries. */
function pairs(flat: readonly string[]): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ hash: flat[i] as string, score: Number(flat[i + 1]) });
  return out;
}

/** A tombstone or corrupt record is dead; a missing one only once it can no longer be a login being written. */
function isDead(f: Found, missingIsOld: boolean): boolean {
  return f.kind === 'dead' || (f.kind === 'missing' && missingIsOld);
}

/** Not past expiresAt at `now` (a record without expiresAt never expires). */
function current(record: SessionRecord, now: number): boolean {
  return record.expiresAt === null || record.expiresAt > now;
}
