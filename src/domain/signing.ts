/**
 * Request-signing rules (spec: "Request signing"), free of crypto and HTTP:
 * X-Sign = HMAC-SHA256(appSecret, appKey + timestamp + nonce + body), lowercase hex.
 */

/** 8-128 characters of [A-Za-z0-9_-]. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** A SHA-256 HMAC written as hex (64 digits). The spec says lowercase; either case decodes to the same bytes. */
export const SIGNATURE_PATTERN = /^[0-9a-fA-F]{64}$/;

/**
 * An X-Timestamp is milliseconds since the epoch written as a plain non-negative integer in its
 * one canonical form: digits without leading zeros (at most 15, far beyond any real date).
 * Anything else (sign, fraction, exponent, spaces, leading zeros, huge values) is not a timestamp: null.
 */
export function parseTimestamp(text: string): number | null {
  if (!/^(?:0|[1-9]\d{0,14})$/.test(text)) return null;
  return Number(text);
}

/** Whether `timestampMs` lies within ±`timeoutSeconds` of `nowMs` (bounds included). */
export function withinWindow(timestampMs: number, nowMs: number, timeoutSeconds: number): boolean {
  return Math.abs(nowMs - timestampMs) <= timeoutSeconds * 1000;
}

/**
 * How long a nonce must be remembered: the configured retention, but never less than the time
 * the request's timestamp stays acceptable (otherwise a replay inside the window would pass).
 */
export function nonceRetentionMs(timestampMs: number, nowMs: number, timeoutSeconds: number, nonceTtlSeconds: number): number {
  return Math.max(nonceTtlSeconds * 1000, timestampMs + timeoutSeconds * 1000 - nowMs + 1000);
}

/** The text before the body in the signed message (no separators, in this order). */
export function signingPrefix(appKey: string, timestamp: string, nonce: string): string {
  return appKey + timestamp + nonce;
}
