/**
 * The online index's background sweeper: bounded work per tick, so that entries of sessions that
 * ended or expired never pile up at the head of the index (a login peak a week ago does not come
 * back as a slow listing) and no listing pays for them.
 *
 * Each tick examines at most `batch` index entries:
 * 1. the legacy index `all:<type>` of a release before the buckets (plain layout), from its head:
 *    the entries of live sessions move to their bucket (ZADD, same score), the others are dropped,
 *    and all of them leave the legacy index, which thus drains and disappears;
 *    (a legacy index found empty is looked at again every LEGACY_RECHECK_TICKS ticks only);
 * 2. then the buckets, walked in turn from a cursor (a rank, moved past what was kept; back to the
 *    head at a bucket's end; at most BUCKETS_PER_TICK buckets a tick): each entry's session is read (one MGET per
 *    500 on one server, one per
 *    session on a cluster) and the entries whose session ended, or is past its expiry, are removed;
 *    a live entry found in a bucket that is not its own (a release with 16 buckets wrote it) moves
 *    to its bucket.
 * A full pass over N entries takes N / batch ticks. Several instances each run their own sweeper:
 * their work overlaps but stays correct (a removal is a ZREM of what is offline). A missing record
 * younger than PENDING_GRACE_MS may be a login still being written: kept (offline()).
 */
import { LOGIN_TYPES } from '../../domain/login-type';
import type { RedisKeys } from './key-layout';
import type { OnlineListing } from './online-listing';
import type { RedisClient } from './redis-client';
import { offline } from './session-indexes';
import { foundOf, type IndexEntry, pairs, type SessionReads } from './session-reads';

/** Index entries a tick examines at most, by default. */
export const SWEEP_BATCH = 1000;
/** Buckets a tick visits at most (an idle index costs a few commands per tick, not one per bucket). */
const BUCKETS_PER_TICK = 4;
/**
 * Ticks between two looks at a legacy index found empty (a release before the buckets may still be
 * writing it during a rolling upgrade; after that it stays empty).
 */
const LEGACY_RECHECK_TICKS = 60;

export interface SweepReport {
  /** Entries examined. */
  readonly examined: number;
  /** Entries removed (ended or expired sessions). */
  readonly removed: number;
  /** Legacy entries moved into their bucket. */
  readonly moved: number;
}

export interface SweeperDeps {
  readonly client: RedisClient;
  readonly keys: RedisKeys;
  readonly reads: SessionReads;
  readonly listing: OnlineListing;
  /** The app clock (ms). */
  readonly now: () => number;
  readonly batch?: number;
  /** Where a failed tick is reported (the next tick tries again). */
  readonly onError?: (err: unknown) => void;
}

export class OnlineIndexSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepReport> | null = null;
  /** Which bucket (over every login type) the walk is in, and its rank there. */
  private bucket = 0;
  private rank = 0;
  private readonly batch: number;
  /** Per login type: the tick count at which its legacy index was last found empty. */
  private readonly legacyEmptyAt = new Map<string, number>();
  private ticks = 0;

  constructor(private readonly d: SweeperDeps) {
    this.batch = d.batch ?? SWEEP_BATCH;
  }

  /** Ticks every `intervalMs` (unref'd: it never keeps the process alive). */
  start(intervalMs: number): this {
    this.timer = setInterval(() => void this.tick().catch((err: unknown) => this.d.onError?.(err)), intervalMs);
    this.timer.unref();
    return this;
  }

  /** Stops ticking and waits for a tick in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One bounded round of work (a tick still running is not doubled: its report is answered). */
  tick(): Promise<SweepReport> {
    this.running ??= this.sweep().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweep(): Promise<SweepReport> {
    const now = this.d.now();
    this.ticks++;
    let [examined, removed, moved] = [0, 0, 0];
    for (const type of LOGIN_TYPES) {
      if (examined >= this.batch) break;
      const r = await this.drainLegacy(type, now, this.batch - examined);
      [examined, removed, moved] = [examined + r.examined, removed + r.removed, moved + r.moved];
    }
    const buckets = LOGIN_TYPES.length * this.d.keys.buckets;
    for (let visited = 0; examined < this.batch && visited < Math.min(buckets, BUCKETS_PER_TICK);) {
      const type = LOGIN_TYPES[Math.floor(this.bucket / this.d.keys.buckets)] as string;
      const key = this.d.keys.allBucket(type, this.bucket % this.d.keys.buckets);
      const want = this.batch - examined;
      const entries = pairs(await this.d.client.zrange(key, this.rank, this.rank + want - 1, 'WITHSCORES'));
      const dead = await this.offlineOf(type, entries, now);
      await this.d.listing.prune(type, dead);
      const gone = new Set(dead);
      const misplaced = await this.moveHome(
        type,
        key,
        entries.filter((e) => !gone.has(e.hash)),
      );
      [examined, removed, moved] = [examined + entries.length, removed + dead.length, moved + misplaced];
      if (entries.length < want) {
        this.bucket = (this.bucket + 1) % buckets;
        this.rank = 0;
        visited++;
      } else {
        this.rank += entries.length - dead.length - misplaced;
      }
    }
    return { examined, removed, moved };
  }

  /** Moves up to `max` entries of the legacy index into their buckets (live sessions) or drops them. */
  private async drainLegacy(type: string, now: number, max: number): Promise<SweepReport> {
    const legacy = this.d.keys.legacyAll(type);
    const emptyAt = this.legacyEmptyAt.get(type);
    if (legacy === null || (emptyAt !== undefined && this.ticks - emptyAt < LEGACY_RECHECK_TICKS))
      return { examined: 0, removed: 0, moved: 0 };
    const entries = pairs(await this.d.client.zrange(legacy, 0, max - 1, 'WITHSCORES'));
    if (entries.length === 0) {
      this.legacyEmptyAt.set(type, this.ticks);
      return { examined: 0, removed: 0, moved: 0 };
    }
    this.legacyEmptyAt.delete(type);
    const dead = new Set(await this.offlineOf(type, entries, now));
    const live = entries.filter((e) => !dead.has(e.hash));
    const byBucket = new Map<string, Array<string | number>>();
    for (const e of live) {
      const key = this.d.keys.all(type, e.hash);
      byBucket.set(key, [...(byBucket.get(key) ?? []), e.score, e.hash]);
    }
    // Into the buckets first, then out of the legacy index: an entry is listed all along.
    await Promise.all([...byBucket].map(([key, args]) => this.d.client.zadd(key, ...args)));
    await this.d.client.zrem(legacy, ...entries.map((e) => e.hash));
    return { examined: entries.length, removed: dead.size, moved: live.length };
  }

  /**
   * Moves live entries found in a bucket that is not theirs (written by a release with fewer buckets,
   * key-layout.ts previousBucket) to their bucket: ZADD there first, then ZREM here. How many moved.
   */
  private async moveHome(type: string, key: string, entries: readonly IndexEntry[]): Promise<number> {
    const away = entries.filter((e) => this.d.keys.all(type, e.hash) !== key);
    if (away.length === 0) return 0;
    const byBucket = new Map<string, Array<string | number>>();
    for (const e of away) {
      const home = this.d.keys.all(type, e.hash);
      byBucket.set(home, [...(byBucket.get(home) ?? []), e.score, e.hash]);
    }
    await Promise.all([...byBucket].map(([home, args]) => this.d.client.zadd(home, ...args)));
    await this.d.client.zrem(key, ...away.map((e) => e.hash));
    return away.length;
  }

  /** The hashes among `entries` whose session ended or expired. */
  private async offlineOf(type: string, entries: readonly IndexEntry[], now: number): Promise<string[]> {
    if (entries.length === 0) return [];
    const raw = await this.d.reads.raw(
      type,
      entries.map((e) => e.hash),
    );
    return entries
      .filter((e, i) => offline(foundOf(e.hash, ...(raw[i] as readonly [string | null, string | null])), e.score, now))
      .map((e) => e.hash);
  }
}
