/**
 * What the use cases count. The adapter decides how it is exposed (Prometheus). Label values
 * must come from small fixed sets (reasons, login types, limiter names), never user input.
 */
import type { LoginType } from '../../domain/login-type';
export interface Metrics {
  /** A login attempt ended: outcome is "success" or the failure reason ("bad-credentials", "captcha-wrong", ...). */
  loginAttempt(loginType: LoginType, outcome: string): void;
  /** A request was refused by a rate limiter (e.g. "login"). */
  rateLimitRejected(limiter: string): void;
  /** A signed request failed its check; reason is the domain reason ("sign-invalid", "sign-nonce-replayed", ...). */
  signatureFailed(reason: string): void;
  /** A duplicate-submission / idempotency conflict; mode is PARAM, TOKEN or HEADER, reason the domain reason. */
  idempotencyConflict(mode: string, reason: string): void;
  /** One e-mail handed to the mailer: 'sent', 'failed' (refused or unreachable) or 'timeout' (slower than svc.mail.timeout-ms). */
  mailSent(kind: string, outcome: 'sent' | 'failed' | 'timeout'): void;
  /** Security events a sink of the audit trail wrote, failed to write (and will retry), or dropped (its queue was full). */
  auditEvents(sink: string, outcome: 'written' | 'failed' | 'dropped', count: number): void;
  /** Webhook messages delivered, failed attempts, messages given up after the last attempt, or dropped (an endpoint's queue was full). */
  webhookDeliveries(outcome: 'delivered' | 'failed' | 'abandoned' | 'dropped', count: number): void;
  /** Events waiting for a sink of the audit trail. */
  auditQueueDepth(sink: string, depth: number): void;
  /** One call to a store port and how long it took. */
  storeCall(store: string, operation: string, seconds: number, ok: boolean): void;
  /**
   * A session read with the local session cache on: answered from the cache ('hit'), read from Redis
   * ('miss'), or read from Redis while the cache is bypassed because its tracking link is down ('bypass').
   */
  sessionCacheLookup(result: 'hit' | 'miss' | 'bypass'): void;
  /** Cached sessions dropped by Redis invalidation messages. */
  sessionCacheInvalidated(entries: number): void;
  /** The whole session cache was dropped: a database was flushed ('server-flush') or the tracking link went down ('link-down'). */
  sessionCacheFlushed(reason: 'server-flush' | 'link-down'): void;
  /** The session cache is in use (true: its tracking link is up) or bypassed (false). */
  sessionCacheTracking(up: boolean): void;
}
