/**
 * TOKEN mode: `GET /idempotent/token` issues a one-time UUID; the guarded request sends it in
 * X-Idempotent-Token and it is consumed atomically (getAndDelete: of N concurrent requests
 * exactly one gets it). A request that then fails gives its token back, so a spent token always
 * means a request that succeeded.
 */

export const tokenKey = (scope: string, token: string): string => `idem:token:${scope}:${token.toLowerCase()}`;

export interface IssuedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
}

export interface ConsumedToken {
  readonly key: string;
  /** When the token would have expired (ms), so a give-back keeps its original deadline. */
  readonly expiresAt: number;
}
