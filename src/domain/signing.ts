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

/** The signing schemes an app may use: the seed's HMAC headers, or RFC 9421 HTTP Message Signatures. */
export type SignScheme = 'v1' | 'rfc9421';
export const SIGN_SCHEMES: readonly SignScheme[] = ['v1', 'rfc9421'];
/** The schemes of an app that `svc.security.sign.schemes` does not list. */
export const DEFAULT_SIGN_SCHEMES: readonly SignScheme[] = ['v1'];

/**
 * A scheme list as configured: `v1`, `rfc9421` or both comma-separated (`v1,rfc9421`, a migration).
 * Returns the schemes, or the first name that is not a scheme ('' for an empty list).
 */
export function parseSchemeList(text: string): { readonly schemes: SignScheme[] } | { readonly unknown: string } {
  const names = text.split(',').map((n) => n.trim());
  const schemes: SignScheme[] = [];
  for (const name of names) {
    if (!(SIGN_SCHEMES as readonly string[]).includes(name)) return { unknown: name };
    if (!schemes.includes(name as SignScheme)) schemes.push(name as SignScheme);
  }
  return { schemes };
}

/** RFC 9421: the only algorithm accepted, and the components every signature must cover. */
export const RFC9421_ALG = 'hmac-sha256';
export const RFC9421_REQUIRED_COMPONENTS: readonly string[] = ['@method', '@target-uri'];
/** Covered as well whenever the request has a body (RFC 9530 `Content-Digest`, sha-256). */
export const RFC9421_BODY_COMPONENT = 'content-digest';
/** The derived components a request signature may cover (RFC 9421 §2.2), without parameters. */
export const RFC9421_DERIVED_COMPONENTS: readonly string[] = [
  '@method',
  '@target-uri',
  '@authority',
  '@scheme',
  '@request-target',
  '@path',
  '@query',
];

/** The required components a covered list lacks, in the order they are required. */
export function missingComponents(covered: readonly string[], hasBody: boolean): string[] {
  const required = hasBody ? [...RFC9421_REQUIRED_COMPONENTS, RFC9421_BODY_COMPONENT] : RFC9421_REQUIRED_COMPONENTS;
  return required.filter((c) => !covered.includes(c));
}

/**
 * The RFC 9421 signature base (§2.5): one `"<component>": <value>` line per covered component, in
 * the signed order, then the `"@signature-params"` line, joined by LF with none at the end.
 */
export function signatureBase(lines: ReadonlyArray<readonly [string, string]>, signatureParams: string): string {
  return [...lines.map(([id, value]) => `"${id}": ${value}`), `"@signature-params": ${signatureParams}`].join('\n');
}

/** An RFC 8941 sf-string may hold printable ASCII only: an RFC 9421 `keyid` (the app key) must fit. */
export function isSfString(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}
