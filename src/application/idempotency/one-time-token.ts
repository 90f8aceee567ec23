/**
 * TOKEN mode: `GET /idempotent/token` issues a one-time UUID; the guarded request sends it in
 * X-Idempotent-Token and it is consumed atomically (getAndDelete: of N concurrent requests
 * exactly one gets it). A request that then fails gives its token back, so a spent token always
 * means a request that succeeded.
 *
 * A token fetched with an access token is bound to that session (its token id) and only that
 * session may spend it; one fetched anonymously may be spent by anyone. Stored value: the expiry
 * (ms) alone for an anonymous token (the form earlier releases wrote for every token, so theirs
 * stay anonymous), `{"expiresAt", "session"}` for a bound one.
 */
import { parseJsonObject } from '../../domain/json-record';

export const tokenKey = (scope: string, token: string): string => `idem:token:${scope}:${token.toLowerCase()}`;

export interface IssuedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
}

export interface TokenRecord {
  /** When the token expires (ms), so a give-back keeps its original deadline. */
  readonly expiresAt: number;
  /** Token id of the session the token is bound to; null = anyone may spend it. */
  readonly session: string | null;
}

export interface ConsumedToken extends TokenRecord {
  readonly key: string;
}

export function encodeTokenRecord(r: TokenRecord): string {
  return r.session === null ? String(r.expiresAt) : JSON.stringify({ expiresAt: r.expiresAt, session: r.session });
}

/** The stored record, or null when the value is neither form. */
export function decodeTokenRecord(raw: string): TokenRecord | null {
  if (/^\d{1,16}$/.test(raw)) return { expiresAt: Number(raw), session: null };
  const v = parseJsonObject(raw);
  if (v !== null && typeof v.expiresAt === 'number' && typeof v.session === 'string' && v.session !== '') return { expiresAt: v.expiresAt, session: v.session };
  return null;
}
