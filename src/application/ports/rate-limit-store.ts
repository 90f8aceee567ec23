export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Hits still allowed in the current window after this one. */
  readonly remaining: number;
  /** Ms until one more hit would be allowed (0 if allowed now). */
  readonly retryAfterMs: number;
  /** Ms until the window is empty again. */
  readonly resetMs: number;
}

/**
 * Sliding-window log: no more than `limit` accepted hits in any `windowMs` span.
 * A rejected hit is not recorded. Atomic (Redis: one Lua script).
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number, now: number): Promise<RateLimitDecision>;
  /** Forget a key (used after a successful login for account counters, and in tests). */
  reset(key: string): Promise<void>;
}
