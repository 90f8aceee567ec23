/**
 * GET /monitor/online on Redis: a page of the per-type online index (its buckets merged oldest
 * first, by createdAt then hash), the page's sessions read, the dead and expired entries met pruned.
 *
 * Cost of a page: ZCARD of each bucket (the total), then
 * - standalone / Sentinel (one bucket): one ZRANGE by rank from `offset` (O(log N + page), however
 *   deep), one MGET for the page's sessions;
 * - cluster (16 buckets): the skipped entries are merged from the buckets (index entries only,
 *   never their records, read in chunks of up to 1000 per bucket: O(offset)), then the page.
 * Dead entries met on the way are pruned (ZREM per bucket) and the page filled past them, at most
 * MAX_DEAD_PER_PAGE of them per call. An IP filter, or an index of at most `exactCountUpTo`
 * entries, reads entries from the head (500 sessions per MGET) to count its matches exactly, at
 * most `scanLimit` of them for an IP filter; a record whose raw value does not hold the IP is not
 * even parsed.
 */
import type { ListedSession, OnlinePage, OnlineQuery } from '../../application/ports/session-store';
import { DEFAULT_DEVICE_TYPE, sessionDeviceType } from '../../domain/device-type';
import type { SessionRecord } from '../../domain/session';
import type { RedisKeys } from './key-layout';
import type { RedisClient } from './redis-client';
import { offline } from './session-indexes';
import { foundOf, type IndexEntry, pairs, type SessionReads } from './session-reads';

/** Dead or expired entries a page call prunes at most (the rest waits for the next listing). */
export const MAX_DEAD_PER_PAGE = 1000;
/** Entries read per round of a scan. */
const SCAN_BATCH = 500;

/**
 * Text every matching stored value holds (a cheap pre-check, no parse): the IP as a JSON string, and
 * the device type's unless it is the default one (a record without a device type is of that type
 * too). Both layouts hold them so: a packed record by position (session-pack.ts), a JSON one by name.
 */
function needlesOf(q: OnlineQuery): string[] {
  const out: string[] = [];
  if (q.ip !== undefined) out.push(JSON.stringify(q.ip));
  if (q.deviceType !== undefined && q.deviceType !== DEFAULT_DEVICE_TYPE) out.push(JSON.stringify(q.deviceType));
  return out;
}

/** Whether a listed record passes the query's filters. */
function selected(record: SessionRecord, q: OnlineQuery): boolean {
  return (q.ip === undefined || record.client.ip === q.ip) && (q.deviceType === undefined || sessionDeviceType(record) === q.deviceType);
}

/** Orders two online-index entries as one sorted set would: score, then member. */
const byScoreThenMember = (a: IndexEntry, b: IndexEntry): number => a.score - b.score || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0);

/**
 * One bucket of the online index, read a chunk at a time from just after the last entry taken, by
 * (score, member): logouts or logins between chunks neither skip nor repeat an entry. The first
 * chunk may start at a rank (a page's offset, on a one-bucket index).
 */
class BucketCursor {
  private page: IndexEntry[] = [];
  private last: IndexEntry | null = null;
  /** Entries taken at the last score (a chunk must reach past them). */
  private atLastScore = 0;
  private done = false;

  constructor(
    private readonly client: RedisClient,
    readonly key: string,
    private readonly chunk: number,
    private startRank = 0,
  ) {}

  /** The next entry without taking it (null once the bucket is exhausted). */
  async peek(): Promise<IndexEntry | null> {
    while (this.page.length === 0 && !this.done) await this.fill();
    return this.page[0] ?? null;
  }

  private async fill(): Promise<void> {
    if (this.startRank > 0) {
      const from = this.startRank;
      this.startRank = 0;
      const flat = await this.client.zrange(this.key, from, from + this.chunk - 1, 'WITHSCORES');
      this.page = pairs(flat);
      if (this.page.length < this.chunk) this.done = true;
      return;
    }
    const last = this.last;
    const count = this.chunk + this.atLastScore;
    const min = last === null ? '-inf' : String(last.score);
    const flat = await this.client.zrange(this.key, min, '+inf', 'BYSCORE', 'LIMIT', 0, count, 'WITHSCORES');
    if (flat.length < 2 * count) this.done = true;
    for (const e of pairs(flat)) if (last === null || byScoreThenMember(e, last) > 0) this.page.push(e);
    if (this.page.length === 0 && !this.done) this.atLastScore += this.chunk;
  }

  take(): void {
    const e = this.page.shift();
    if (e === undefined) return;
    this.atLastScore = this.last !== null && this.last.score === e.score ? this.atLastScore + 1 : 1;
    this.last = e;
  }
}

/** Up to `n` entries taken from the cursors in (score, member) order. */
async function nextInOrder(cursors: readonly BucketCursor[], n: number): Promise<IndexEntry[]> {
  const taken: IndexEntry[] = [];
  while (taken.length < n) {
    const heads = cursors.length === 1 ? [await (cursors[0] as BucketCursor).peek()] : await Promise.all(cursors.map((c) => c.peek()));
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

export class OnlineListing {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly reads: SessionReads,
  ) {}

  async page(type: string, now: number, q: OnlineQuery): Promise<OnlinePage> {
    const count = await this.count(type);
    const filtered = q.ip !== undefined || q.deviceType !== undefined;
    if (filtered || count <= q.exactCountUpTo) return this.scan(type, now, q, filtered ? q.scanLimit : count);
    const cursors = await this.cursorsAt(type, q.offset, q.limit);
    const sessions: ListedSession[] = [];
    let pruned = 0;
    while (sessions.length < q.limit && pruned < MAX_DEAD_PER_PAGE) {
      const batch = await nextInOrder(cursors, q.limit - sessions.length);
      if (batch.length === 0) break;
      const raw = await this.reads.raw(
        type,
        batch.map((e) => e.hash),
      );
      const dead: string[] = [];
      raw.forEach(([value, last], i) => {
        const e = batch[i] as IndexEntry;
        const found = foundOf(e.hash, value, last);
        if (offline(found, e.score, now)) dead.push(e.hash);
        else if (found.kind === 'active') sessions.push(found.session);
      });
      await this.prune(type, dead);
      pruned += dead.length;
    }
    return { sessions, total: Math.max(sessions.length, count - pruned), totalExact: false };
  }

  /** Reads entries from the head, at most `maxRead`, keeping the matches' page and counting them. */
  private async scan(type: string, now: number, q: OnlineQuery, maxRead: number): Promise<OnlinePage> {
    const cursors = await this.cursorsAt(type, 0, SCAN_BATCH);
    const needles = needlesOf(q);
    const sessions: ListedSession[] = [];
    let [matches, read, complete] = [0, 0, true];
    for (;;) {
      const batch = await nextInOrder(cursors, Math.min(SCAN_BATCH, maxRead - read));
      if (batch.length === 0) {
        complete = (await nextInOrder(cursors, 1)).length === 0;
        break;
      }
      read += batch.length;
      const raw = await this.reads.raw(
        type,
        batch.map((e) => e.hash),
      );
      const dead: string[] = [];
      raw.forEach(([value, last], i) => {
        // Not this IP or device type: not even parsed (nor pruned: the next unfiltered listing does that).
        if (needles.length > 0 && (value === null || needles.some((n) => !value.includes(n)))) return;
        const e = batch[i] as IndexEntry;
        const found = foundOf(e.hash, value, last);
        if (offline(found, e.score, now)) dead.push(e.hash);
        else if (found.kind === 'active' && selected(found.session.record, q)) {
          if (matches >= q.offset && sessions.length < q.limit) sessions.push(found.session);
          matches++;
        }
      });
      await this.prune(type, dead);
    }
    return { sessions, total: matches, totalExact: complete };
  }

  /** How many entries the online index holds (every bucket). */
  private async count(type: string): Promise<number> {
    const k = this.keys;
    const sizes = await Promise.all(Array.from({ length: k.buckets }, (_, n) => this.client.zcard(k.allBucket(type, n))));
    return sizes.reduce((a, b) => a + b, 0);
  }

  /** Cursors over the buckets, positioned after `offset` entries (one bucket: by rank; several: merged and skipped). */
  private async cursorsAt(type: string, offset: number, limit: number): Promise<BucketCursor[]> {
    const k = this.keys;
    if (k.buckets === 1) return [new BucketCursor(this.client, k.allBucket(type, 0), Math.max(100, Math.min(1000, limit)), offset)];
    const chunk = Math.max(100, Math.min(1000, Math.ceil((offset + limit) / k.buckets) + 10));
    const cursors = Array.from({ length: k.buckets }, (_, n) => new BucketCursor(this.client, k.allBucket(type, n), chunk));
    for (let left = offset; left > 0;) {
      const skipped = await nextInOrder(cursors, Math.min(left, 10_000));
      if (skipped.length === 0) break;
      left -= skipped.length;
    }
    return cursors;
  }

  /** Removes hashes from their online buckets (one ZREM per bucket). */
  private async prune(type: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    const byBucket = new Map<string, string[]>();
    for (const h of hashes) {
      const key = this.keys.all(type, h);
      byBucket.set(key, [...(byBucket.get(key) ?? []), h]);
    }
    await Promise.all([...byBucket].map(([key, members]) => this.client.zrem(key, ...members)));
  }
}
