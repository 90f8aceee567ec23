/**
 * RateLimitStore in memory: a sliding-window log of accepted hits per key. Windows are measured
 * on the caller's `now`; a log is dropped once its newest hit has left the window.
 */
import type { Clock } from '../../application/ports/clock';
import type { RateLimitDecision, RateLimitStore } from '../../application/ports/rate-limit-store';
import type { Sweepable } from './expiring-map';

/** Accepted hits of one rate-limit key (ascending) and the window last used with it. */
interface HitLog {
  hits: number[];
  windowMs: number;
}

/** The hits of a new log (never written to: the first hit replaces it). */
const NO_HITS: number[] = [];

export class InMemoryRateLimitStore implements RateLimitStore, Sweepable {
  private readonly rateLogs = new Map<string, HitLog>();

  constructor(private readonly clock: Clock) {}

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision> {
    const log = this.rateLogs.get(key) ?? { hits: NO_HITS, windowMs };
    log.windowMs = windowMs;
    // Forget hits outside the window (now - windowMs, now].
    const cutoff = now - windowMs;
    let drop = 0;
    while (drop < log.hits.length && (log.hits[drop] ?? Infinity) <= cutoff) drop++;
    if (drop > 0) log.hits.splice(0, drop);

    const count = log.hits.length;
    if (count < limit) {
      // Keep the log sorted even if callers' clocks are not perfectly monotonic.
      let at = log.hits.length;
      while (at > 0 && (log.hits[at - 1] ?? -Infinity) > now) at--;
      // A log of one hit (most keys) is an array of one number, not one grown for more.
      if (log.hits.length === 0) log.hits = [now];
      else log.hits.splice(at, 0, now);
      this.rateLogs.set(key, log);
      const newest = log.hits[log.hits.length - 1] ?? now;
      return { allowed: true, remaining: limit - count - 1, retryAfterMs: 0, resetMs: newest + windowMs - now };
    }

    // Rejected: not recorded. One more hit fits once the (count - limit + 1)-th oldest leaves the window.
    if (count === 0) {
      this.rateLogs.delete(key);
      return { allowed: false, remaining: 0, retryAfterMs: windowMs, resetMs: 0 };
    }
    const freeing = limit > 0 ? log.hits[count - limit] : undefined;
    const newest = log.hits[count - 1] ?? now;
    return {
      allowed: false,
      remaining: 0,
      retryAfterMs: freeing === undefined ? windowMs : freeing + windowMs - now,
      resetMs: newest + windowMs - now,
    };
  }

  async reset(key: string): Promise<void> {
    this.rateLogs.delete(key);
  }

  /** Drops the logs whose newest hit has left its window (on the store clock). */
  sweep(): number {
    const now = this.clock.now();
    let removed = 0;
    for (const [key, log] of this.rateLogs) {
      const newest = log.hits[log.hits.length - 1];
      if (newest === undefined || newest + log.windowMs <= now) {
        this.rateLogs.delete(key);
        removed++;
      }
    }
    return removed;
  }

  size(): number {
    return this.rateLogs.size;
  }
}
