/**
 * TOKEN mode: `GET /idempotent/token` issues a one-time token; the guarded request sends it in
 * X-Idempotent-Token and spends it atomically (of N concurrent requests exactly one gets it). A
 * request that then fails gives its token back, so a spent token always means a request that
 * succeeded.
 *
 * Tokens are stateless until spent: `<nonce>.<expiresAt ms>.<binding>.<mac>`, where the binding is
 * `a` (anyone may spend it) or `s` + a digest of the token id of the session that fetched it (only
 * that session may), and the MAC is HMAC-SHA256 over the app (scope), nonce, expiry and binding
 * under svc.idempotency.token-secret (the previous secret verifies too). Issuing writes nothing;
 * spending stores `idem:spent:<scope>:<nonce>` (set-if-absent) for the rest of the token's life.
 *
 * Tokens of earlier releases (a UUID whose record is stored under `idem:token:<scope>:<uuid>`:
 * the expiry alone for an anonymous token, `{"expiresAt", "session"}` for a bound one) are still
 * spent from the store, until they expire.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { macUnderAnyKey } from '../shared/keyed-mac';
import { parseJsonObject } from '../../domain/json-record';

export interface IssuedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
}

/** What a verified signed token says. */
export interface SignedTokenClaims {
  readonly nonce: string;
  readonly expiresAt: number;
  /** Digest of the bound session's token id; null = anyone may spend it. */
  readonly sessionDigest: string | null;
}

const SIGNED = /^([A-Za-z0-9_-]{22})\.([1-9][0-9]{0,15})\.(a|s[A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const MAC_BYTES = 32;

/** The binding digest of a session token id (the token carries no session id in clear). */
export function sessionDigestOf(tokenId: string): string {
  return createHash('sha256').update(`authguard-idempotency-session\n${tokenId}`).digest().subarray(0, 16).toString('base64url');
}

function mac(secret: string, scope: string, nonce: string, expiresAt: number, binding: string): Buffer {
  if (secret === '') throw new Error('idempotency tokens need a key (svc.idempotency.token-secret)');
  return createHmac('sha256', secret).update(`authguard-idempotency-token\n${scope}\n${nonce}\n${expiresAt}\n${binding}`).digest();
}

/** A new signed token for `scope` under the first (current) secret. */
export function signToken(secrets: readonly string[], scope: string, expiresAt: number, session: string | undefined): string {
  const nonce = randomBytes(16).toString('base64url');
  const binding = session === undefined ? 'a' : `s${sessionDigestOf(session)}`;
  return `${nonce}.${expiresAt}.${binding}.${mac(secrets[0] ?? '', scope, nonce, expiresAt, binding).toString('base64url')}`;
}

/**
 * The claims of a token this service signed for `scope` under one of `secrets`, or null for
 * anything else (malformed, forged, tampered, another app's). Every secret is compared, in
 * constant time. Expiry is the caller's to judge.
 */
export function verifyToken(secrets: readonly string[], scope: string, token: string): SignedTokenClaims | null {
  const m = token.length > 200 ? null : SIGNED.exec(token);
  if (m === null) return null;
  const [, nonce = '', exp = '', binding = '', given64 = ''] = m;
  const expiresAt = Number(exp);
  const given = Buffer.from(given64, 'base64url');
  if (given.length !== MAC_BYTES || !Number.isSafeInteger(expiresAt)) return null;
  const valid = macUnderAnyKey(given, secrets, (secret) => mac(secret, scope, nonce, expiresAt, binding));
  return valid ? { nonce, expiresAt, sessionDigest: binding === 'a' ? null : binding.slice(1) } : null;
}

/** Key of a spent signed token: kept until the token would have expired. */
export const spentKey = (scope: string, nonce: string): string => `idem:spent:${scope}:${nonce}`;

/** Key of a stored token of an earlier release. */
export const tokenKey = (scope: string, token: string): string => `idem:token:${scope}:${token.toLowerCase()}`;

/** A stored token of an earlier release. */
export interface TokenRecord {
  /** When the token expires (ms), so a give-back keeps its original deadline. */
  readonly expiresAt: number;
  /** Token id of the session the token is bound to; null = anyone may spend it. */
  readonly session: string | null;
}

/** A spent token, with what giving it back needs. */
export type ConsumedToken =
  /** A signed token: its spent-marker (ours while `owner` is in it). */
  | { readonly kind: 'signed'; readonly key: string; readonly owner: string }
  /** A stored token of an earlier release: its record, to put back. */
  | ({ readonly kind: 'stored'; readonly key: string } & TokenRecord);

export function encodeTokenRecord(r: TokenRecord): string {
  return r.session === null ? String(r.expiresAt) : JSON.stringify({ expiresAt: r.expiresAt, session: r.session });
}

/** The stored record, or null when the value is neither form. */
export function decodeTokenRecord(raw: string): TokenRecord | null {
  if (/^\d{1,16}$/.test(raw)) return { expiresAt: Number(raw), session: null };
  const v = parseJsonObject(raw);
  if (v !== null && typeof v.expiresAt === 'number' && typeof v.session === 'string' && v.session !== '')
    return { expiresAt: v.expiresAt, session: v.session };
  return null;
}
