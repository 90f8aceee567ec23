/**
 * What the use cases count. The adapter decides how it is exposed (Prometheus). Label values
 * must come from small fixed sets (reasons, login types, limiter names), never user input.
 */
export interface Metrics {
  /** A login attempt ended: outcome is "success" or the failure reason ("bad-credentials", "captcha-wrong", ...). */
  loginAttempt(loginType: string, outcome: string): void;
  /** A request was refused by a rate limiter (e.g. "login"). */
  rateLimitRejected(limiter: string): void;
  /** A signed request failed its check; reason is the domain reason ("sign-invalid", "sign-nonce-replayed", ...). */
  signatureFailed(reason: string): void;
  /** A duplicate-submission / idempotency conflict; mode is PARAM, TOKEN or HEADER, reason the domain reason. */
  idempotencyConflict(mode: string, reason: string): void;
  /** One call to a store port and how long it took. */
  storeCall(store: string, operation: string, seconds: number, ok: boolean): void;
}
