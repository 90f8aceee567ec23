/**
 * Authentication of a request: the token it presents (header, or cookie when
 * `session.is-read-cookie`) -> the live session and its principal, in one store round trip.
 * Every failure is a DomainError whose reason says precisely why (missing, bad prefix, invalid,
 * expired, frozen, kicked out, replaced) and whether a token was presented at all.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { ResolveFailure, SessionRecord } from '../../domain/session';
import { SessionManagers } from '../session/session-manager';
import type { LoginType } from '../../domain/login-type';

const MESSAGES: Record<ResolveFailure, string> = {
  'token-missing': 'No access token was sent.',
  'token-bad-prefix': 'The access token must be sent as "Authorization: Bearer <token>".',
  'token-invalid': 'The access token is not valid.',
  'token-expired': 'The access token has expired.',
  'token-frozen': 'The session expired after a period of inactivity.',
  'token-kicked-out': 'The session was ended (kicked out).',
  'token-replaced': 'The session was replaced by a login elsewhere.',
};

/** Where a login type's token travels. */
export interface TokenSource {
  /** The header (and, with `readCookie`, the cookie) name: session.token-name. */
  readonly name: string;
  /** The header value's prefix, e.g. "Bearer". */
  readonly prefix: string;
  /** session.is-read-cookie: a cookie named like the header carries the bare token when no header is sent. */
  readonly readCookie: boolean;
}

export interface AuthenticateInput {
  readonly loginType: LoginType;
  /** The token header's value, if sent. */
  readonly header: string | undefined;
  /** The token cookie's value, read only when the source allows it and no header was sent. */
  readonly cookie?: string | undefined;
}

export interface Authenticated {
  readonly loginType: LoginType;
  readonly tokenHash: string;
  /** The session, with the principal snapshot (roles, permissions) the permission checks read. */
  readonly record: SessionRecord;
}

@injectable()
export class Authenticate {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [...(Object.keys(MESSAGES) as ResolveFailure[]), 'store-unavailable'];

  constructor(@inject(SessionManagers) private readonly managers: SessionManagers) {}

  /** Fails at start-up for an unknown login type. */
  source(loginType: LoginType): TokenSource {
    const p = this.managers.get(loginType).policy;
    return { name: p.tokenName, prefix: p.tokenPrefix, readCookie: p.isReadCookie };
  }

  async execute(input: AuthenticateInput): Promise<Authenticated> {
    const manager = this.managers.get(input.loginType);
    const cookie = input.header === undefined && manager.policy.isReadCookie ? input.cookie : undefined;
    const result = cookie !== undefined && cookie !== '' ? await manager.resolveToken(cookie) : await manager.resolveHeader(input.header);
    if (!result.ok) {
      throw new DomainError(result.reason, MESSAGES[result.reason], { loginType: input.loginType, tokenPresented: result.tokenPresented });
    }
    return { loginType: input.loginType, tokenHash: result.session.tokenHash, record: result.session.record };
  }
}
