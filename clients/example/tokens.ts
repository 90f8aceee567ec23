/** The tokens of one login, kept by the client and sent as `Authorization: Bearer` on every call. */
import type { Middleware } from 'openapi-fetch';

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

export class TokenStore {
  private current: TokenPair | undefined;

  get tokens(): TokenPair | undefined {
    return this.current;
  }

  set(tokens: TokenPair): void {
    this.current = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  }

  clear(): void {
    this.current = undefined;
  }

  /** The refresh token, or an error when nobody is logged in. */
  refreshToken(): string {
    if (!this.current) throw new Error('not logged in');
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
