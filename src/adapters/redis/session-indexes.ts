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
import type { RedisClient } from './redis-client';
import { activeRecord, current, type Found, isDead, pairs, PENDING_GRACE_MS, type SessionReads } from './session-reads';

export { activeRecord, PENDING_GRACE_MS } from './session-reads';

export class SessionIndexes {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly run: ScriptRunner<'agSessionIndexUser' | 'agSessionDropToken'>,
    private readonly reads: SessionReads,
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
    if (dead.length > 0) await this.client.zrem(userKey, ...dead.map((e) => e.hash));
    return found.flatMap((f) => (f.kind === 'active' && current(f.session.record, now) ? [f.session] : []));
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
