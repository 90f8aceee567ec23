/**
 * GET /monitor/online on Redis: a page of the per-type online index (its buckets merged oldest
 * first, by createdAt then hash), the page's sessions read, the dead and expired entries met pruned.
 * The buckets (key-layout.ts, both layouts) and, on a plain layout upgraded from a release before
 * them, the one legacy index `all:<type>` (one more bucket, until the index sweeper drained it).
 *
 * Cost of a page: ZCARD of each bucket (the total), then
 * - the page's start found without reading past it: a pivot search over scores (a pivot entry
 *   read by rank in the bucket with the most entries left in the interval, at the rank the offset
 *   interpolates to, then ZCOUNT of every bucket below and up to the pivot; a few rounds of two
 *   round trips, O(buckets × log N) each, however deep the page);
 * - from that score, about 3 × (limit + the start score's ties) / buckets + 5 entries of each bucket
 *   (a bucket that runs dry reads on), merged; one MGET for the page's sessions.
 * Dead entries met on the way are pruned (ZREM per bucket) and the page filled past them, at most
 * MAX_DEAD_PER_PAGE of them per call (the index sweeper prunes the rest in the background, so no
 * listing pays for a login peak). An IP or device-type filter, or an index of at most
 * `exactCountUpTo` entries, reads entries from the head (500 sessions per MGET) to count its
 * matches exactly, at most `scanLimit` of them for a filter; a record whose raw value does not hold
 * the IP is not even parsed.
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
/** Entries a filter script takes at once. */
const SCAN_BATCH = 500;
/** Records a scan reads at once (its MGETs of 500 sent together). */
const SCAN_WAVE = 2000;

function batchesOf<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

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

  /** `from`: the first chunk starts at this score (inclusive; '-inf': the head). */
  constructor(
    private readonly client: RedisClient,
    readonly key: string,
    private readonly chunk: number,
    private readonly from = '-inf',
  ) {}

  /** Whether the next entry needs a read (peek) before `head` shows it. */
  get dry(): boolean {
    return this.page.length === 0 && !this.done;
  }

  /** The next entry as read so far (null: none read, see `dry`). */
  get head(): IndexEntry | null {
    return this.page[0] ?? null;
  }

  /** The next entry without taking it (null once the bucket is exhausted). */
  async peek(): Promise<IndexEntry | null> {
    while (this.page.length === 0 && !this.done) await this.fill();
    return this.page[0] ?? null;
  }

  private async fill(): Promise<void> {
    const last = this.last;
    const count = this.chunk + this.atLastScore;
    const min = last === null ? this.from : String(last.score);
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

/** Up to `n` entries taken from the cursors in (score, member) order (a cursor's chunk is read when it runs dry). */
async function nextInOrder(cursors: readonly BucketCursor[], n: number): Promise<IndexEntry[]> {
  const taken: IndexEntry[] = [];
  await Promise.all(cursors.filter((c) => c.dry).map((c) => c.peek()));
  while (taken.length < n) {
    let best: BucketCursor | null = null;
    let head: IndexEntry | null = null;
    for (const c of cursors) {
      const h = c.head;
      if (h !== null && (head === null || byScoreThenMember(h, head) < 0)) [best, head] = [c, h];
    }
    if (best === null || head === null) break;
    taken.push(head);
    best.take();
    if (best.dry) await best.peek();
  }
  return taken;
}

/** Where a page starts: the first score to read from (inclusive) and how many entries from there to skip. */
interface PageStart {
  readonly from: string;
  readonly skip: number;
}

/** Rounds of the pivot search at most (it converges in a few; past this, the rest is skipped by merging). */
const PIVOT_ROUNDS = 24;

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * The entries among `entries` whose record may hold every needle, decided in Redis (session-filter.lua,
 * standalone and Sentinel): only those records are read. Absent (a cluster), every record is read.
 */
export type CandidateFilter = (type: string, entries: readonly IndexEntry[], needles: readonly string[]) => Promise<IndexEntry[]>;

export class OnlineListing {
  constructor(
    private readonly client: RedisClient,
    private readonly keys: RedisKeys,
    private readonly reads: SessionReads,
    private readonly filter?: CandidateFilter,
  ) {}

  async page(type: string, now: number, q: OnlineQuery): Promise<OnlinePage> {
    const keys = this.keys.allKeys(type);
    const sizes = await Promise.all(keys.map((key) => this.client.zcard(key)));
    const count = sum(sizes);
    const filtered = q.ip !== undefined || q.deviceType !== undefined;
    if (filtered || count <= q.exactCountUpTo) return this.scan(type, keys, now, q, filtered ? q.scanLimit : count);
    if (q.offset >= count) return { sessions: [], total: count, totalExact: false };
    const start = q.offset === 0 ? { from: '-inf', skip: 0 } : await this.startOf(keys, sizes, q.offset);
    // A bucket holds about 1/buckets of the page: a few times that per bucket (a bucket that runs dry reads on).
    const chunk = Math.min(1000, Math.ceil((3 * (q.limit + start.skip)) / keys.length) + 5);
    const cursors = keys.map((key) => new BucketCursor(this.client, key, chunk, start.from));
    if (start.skip > 0) await nextInOrder(cursors, start.skip);
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

  /**
   * The score the entry at `offset` (0-based, over every bucket) has, and its place among the
   * entries of that score: a search over scores between an exclusive lower bound `lo` (entries at
   * or below it: `below`, per bucket) and an exclusive upper bound `hi` (entries under it: `under`).
   * Each round takes a pivot entry inside (lo, hi) from the bucket with the most entries there, at
   * the rank the offset interpolates to, and counts every bucket's entries under and up to it.
   * Entries logged in or out meanwhile can move the page by as many (as any offset paging would).
   */
  private async startOf(keys: readonly string[], sizes: readonly number[], offset: number): Promise<PageStart> {
    let lo = '-inf';
    let hi = '+inf';
    let below = keys.map(() => 0);
    let under = [...sizes];
    const exclusive = (bound: string): string => (bound.endsWith('inf') ? bound : `(${bound}`);
    for (let round = 0; round < PIVOT_ROUNDS; round++) {
      const [cLo, cHi] = [sum(below), sum(under)];
      let b = 0;
      for (let i = 1; i < keys.length; i++)
        if ((under[i] as number) - (below[i] as number) > (under[b] as number) - (below[b] as number)) b = i;
      const n = (under[b] as number) - (below[b] as number);
      if (n <= 0 || cHi <= cLo) break;
      const rank = Math.min(n - 1, Math.max(0, Math.floor(((offset - cLo) / (cHi - cLo)) * n)));
      const pivot = await this.client.zrange(keys[b] as string, exclusive(lo), exclusive(hi), 'BYSCORE', 'LIMIT', rank, 1, 'WITHSCORES');
      const p = pivot[1];
      if (p === undefined) break;
      const [lt, le] = await Promise.all([
        Promise.all(keys.map((key) => this.client.zcount(key, '-inf', `(${p}`))),
        Promise.all(keys.map((key) => this.client.zcount(key, '-inf', p))),
      ]);
      const [LT, LE] = [sum(lt), sum(le)];
      if (LT <= offset && offset < LE) return { from: p, skip: offset - LT };
      if (LE <= offset) [lo, below] = [p, le];
      else [hi, under] = [p, lt];
    }
    return { from: exclusive(lo), skip: Math.max(0, offset - sum(below)) };
  }

  /**
   * Reads entries from the head, at most `maxRead`, keeping the matches' page and counting them. The
   * entries are merged first, then filtered (session-filter.lua, all batches at once) and read
   * (SCAN_WAVE records at a time, each wave's MGETs at once): a few round trips, not one per batch.
   */
  private async scan(type: string, keys: readonly string[], now: number, q: OnlineQuery, maxRead: number): Promise<OnlinePage> {
    const chunk = Math.max(100, Math.min(2000, Math.ceil((maxRead / keys.length) * 1.3) + 50));
    const cursors = keys.map((key) => new BucketCursor(this.client, key, chunk));
    const entries = await nextInOrder(cursors, maxRead);
    const complete = entries.length < maxRead || (await nextInOrder(cursors, 1)).length === 0;
    const needles = needlesOf(q);
    const filter = this.filter;
    const candidates =
      needles.length > 0 && filter !== undefined
        ? (await Promise.all(batchesOf(entries, SCAN_BATCH).map((b) => filter(type, b, needles)))).flat()
        : entries;
    const sessions: ListedSession[] = [];
    let matches = 0;
    for (const wave of batchesOf(candidates, SCAN_WAVE)) {
      const raw = await this.reads.raw(
        type,
        wave.map((e) => e.hash),
      );
      const dead: string[] = [];
      raw.forEach(([value, last], i) => {
        // Not this IP or device type: not even parsed (nor pruned: the next unfiltered listing does that).
        if (needles.length > 0 && (value === null || needles.some((n) => !value.includes(n)))) return;
        const e = wave[i] as IndexEntry;
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

  /** Removes hashes from their online buckets (one ZREM per bucket) and where earlier releases put them (onlineKeysOf). */
  async prune(type: string, hashes: readonly string[]): Promise<void> {
    if (hashes.length === 0) return;
    const byBucket = new Map<string, string[]>();
    for (const h of hashes) for (const key of this.keys.onlineKeysOf(type, h)) byBucket.set(key, [...(byBucket.get(key) ?? []), h]);
    await Promise.all([...byBucket].map(([key, members]) => this.client.zrem(key, ...members)));
  }
}
