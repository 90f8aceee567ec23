/** The tokens of one login, kept by the client and sent as `Authorization: Bearer` on every call. */
import type { Middleware } from 'openapi-fetch';

export interface TokenPair {
  readonly accessToken: string;
  /** Absent after a login with `rememberMe: false`: that session ends without a refresh. */
  readonly refreshToken?: string | undefined;
}

export class TokenStore {
  private current: TokenPair | undefined;

  get tokens(): TokenPair | undefined {
    return this.current;
  }

  set(tokens: TokenPair): void {
    this.current = { accessToken: tokens.accessToken, ...(tokens.refreshToken !== undefined ? { refreshToken: tokens.refreshToken } : {}) };
  }

  clear(): void {
    this.current = undefined;
  }

  /** The refresh token, or an error when nobody is logged in or the login came without one (`rememberMe: false`). */
  refreshToken(): string {
    if (!this.current) throw new Error('not logged in');
    if (this.current.refreshToken === undefined) throw new Error('this login has no refresh token (rememberMe: false): log in again');
    return this.current.refreshToken;
  }

  /** openapi-fetch middleware: the bearer header while logged in (the apps read tokens from this header only). */
  bearer(): Middleware {
    return {
      onRequest: ({ request }) => {
        if (this.current && !request.headers.has('Authorization'))
          request.headers.set('Authorization', `Bearer ${this.current.accessToken}`);
        return request;
      },
    };
  }
}
