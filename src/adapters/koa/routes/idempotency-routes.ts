/**
 * `GET /idempotent/token` (both apps): a one-time token for routes guarded by idempotent({mode: 'TOKEN'}).
 * Public; a caller that presents an access token gets a token bound to that session (only that
 * session may spend it), so a presented access token must be valid (401 otherwise). Metered: per
 * client IP before anything else, then per session when one is presented.
 */
import { Authenticate } from '../../../application/auth/authenticate';
import { IssueIdempotencyToken } from '../../../application/idempotency/issue-idempotency-token';
import { optionalLogin } from '../guards';
import type { RateLimitGuardFactory } from '../rate-limit';
import { route, type RouteDef } from '../routes';
import { IdempotencyToken } from '../schemas/account-schemas';
import type { LoginType } from '../../../domain/login-type';

export interface IdempotentTokenDeps {
  readonly issue: IssueIdempotencyToken;
  readonly authenticate: Authenticate;
  /** The app's login type, whose access token binds a token. */
  readonly loginType: LoginType;
  readonly rateLimit: RateLimitGuardFactory;
  /** svc.idempotency.token-rate-limit-per-minute: per client IP, and per session when one is presented. */
  readonly perMinute: number;
}

export function idempotentTokenRoutes(deps: IdempotentTokenDeps): RouteDef[] {
  return [
    route({
      method: 'get',
      path: '/idempotent/token',
      summary:
        'Issues a one-time X-Idempotent-Token (public; valid on this app only, for token-ttl-seconds). Fetched with an access token, only that session may spend it',
      tags: ['idempotency'],
      // The IP limit first (it also shields the session lookup); a presented access token is then authenticated and counted too.
      guards: [
        deps.rateLimit({ key: 'idempotent-token', windowSeconds: 60, limit: deps.perMinute, limitType: 'IP' }),
        optionalLogin(deps.authenticate, deps.loginType),
        deps.rateLimit({ key: 'idempotent-token-session', windowSeconds: 60, limit: deps.perMinute, limitType: 'SESSION' }),
      ],
      response: IdempotencyToken,
      raises: IssueIdempotencyToken.reasons,
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const issued = await deps.issue.execute({ scope: (ctx.state as { realm?: string }).realm ?? 'app', session: ctx.state.auth?.record.tokenId });
        return { token: issued.token, expiresIn: issued.expiresInSeconds };
      },
    }),
  ];
}
