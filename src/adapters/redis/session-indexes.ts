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
import { parseLastActive, parseRecord } from './session-codec';
import type { RedisClient } from './redis-client';

const TOMBSTONES = new Set(['kicked-out', 'replaced']);

/** The record of an active session, or null for a missing key, a tombstone or corrupt data. */
export function activeRecord(value: string | null | undefined): SessionRecord | null {
  if (value === null || value === undefined || TOMBSTONES.has(value)) return null;
  return parseRecord(value);
}

/** Orders two online-index entries as one sorted set would: score, then member. */
const byScoreThenMember = (a: IndexEntry, b: IndexEntry): number => a.score - b.score || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

interface IndexEntry {
  readonly hash: string;
  readonly score: number;
}

/** One bucket of the online index, read a page at a time. */
class BucketCursor {
  private page: IndexEntry[] = [];
  private pos = 0;
  private done = false;

  constructor(
    private readonly client: RedisClient,
    readonly key: string,
  ) {}

  /** The next entry without taking it (null once the bucket is exhausted). */
  async peek(): Promise<IndexEntry | null> {
    if (this.page.length === 0 && !this.done) {
      const flat = await this.client.zrange(this.key, this.pos, this.pos + 99, 'WITHSCORES');
      this.pos += flat.length / 2;
      if (flat.length < 200) this.done = true;
      for (let i = 0; i + 1 < flat.length; i += 2) this.page.push({ hash: flat[i] as string, score: Number(flat[i + 1]) });
    }
    return this.page[0] ?? null;
  }

  take(): void {
    this.page.shift();
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
      ret === '' ? this.client.set(k.tokenId(type, record.tokenId), hash) : this.client.set(k.tokenId(type, record.tokenId), hash, 'PX', ret),
      this.client.zadd(k.all(type, hash), String(record.createdAt), hash),
    ]);
    const [others, candidates] = reply;
    await this.pruneUser(type, userKey, candidates.filter((h) => h !== hash));
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

  /** The listed form of each hash's session (null where not active), one MGET per session slot. */
  async read(type: string, hashes: readonly string[]): Promise<Array<ListedSession | null>> {
    const k = this.keys;
    const replies = await Promise.all(hashes.map((h) => this.client.mget(k.session(type, h), k.lastActive(type, h))));
    return replies.map(([value, last], i) => {
      const record = activeRecord(value);
      return record === null ? null : { tokenHash: hashes[i] as string, record, lastActiveAt: parseLastActive(last, record) };
    });
  }

  /** The user's current sessions; prunes index entries whose session is gone. */
  async listUser(type: string, userId: string, now: number): Promise<ListedSession[]> {
    const userKey = this.keys.user(type, userId);
    const hashes = await this.client.zrange(userKey, 0, -1);
    const listed = await this.read(type, hashes);
    const dead = hashes.filter((_, i) => listed[i] === null);
    if (dead.length > 0) await this.client.zrem(userKey, ...dead);
    return listed.filter((s): s is ListedSession => s !== null && current(s.record, now));
  }

  /**
   * Current sessions of a login type, oldest first (createdAt, then hash), at most `limit`: the
   * buckets merged in order, read page by page; entries whose session is gone are pruned.
   */
  async listAll(type: string, now: number, limit: number): Promise<ListedSession[]> {
    const cursors = Array.from({ length: this.keys.buckets }, (_, n) => new BucketCursor(this.client, this.keys.allBucket(type, n)));
    const out: ListedSession[] = [];
    const dead: IndexEntry[] = [];
    while (out.length < limit) {
      const batch = await this.nextInOrder(cursors, limit - out.length);
      if (batch.length === 0) break;
      const listed = await this.read(type, batch.map((e) => e.hash));
      listed.forEach((s, i) => {
        if (s === null) dead.push(batch[i] as IndexEntry);
        else if (current(s.record, now) && out.length < limit) out.push(s);
      });
    }
    if (dead.length > 0) await Promise.all(dead.map((e) => this.client.zrem(this.keys.all(type, e.hash), e.hash)));
    return out;
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
  async sampleBucket(type: string, hash: string): Promise<void> {
    const bucket = this.keys.all(type, hash);
    const sample = ((await this.client.zrandmember(bucket, 3)) as string[]).filter((h) => h !== hash);
    if (sample.length === 0) return;
    const values = await Promise.all(sample.map((h) => this.client.get(this.keys.session(type, h))));
    const dead = sample.filter((_, i) => {
      const v = values[i];
      return v === null || v === undefined || TOMBSTONES.has(v);
    });
    if (dead.length > 0) await this.client.zrem(bucket, ...dead);
  }
}

/** Not past expiresAt at `now` (a record without expiresAt never expires). */
function current(record: SessionRecord, now: number): boolean {
  return record.expiresAt === null || record.expiresAt > now;
}
