/**
 * `GET /idempotent/token` (both apps): a one-time token for routes guarded by idempotent({mode: 'TOKEN'}).
 * Public; a caller that presents an access token gets a token bound to that session (only that
 * session may spend it), so a presented access token must be valid (401 otherwise). Metered: per
 * client IP before anything else, then per session when one is presented.
 */
import { Authenticate } from '../../../application/auth/authenticate';
import { IssueIdempotencyToken } from '../../../application/idempotency/issue-idempotency-token';
import { optionalLogin } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { IdempotencyToken } from '../schemas/account-schemas';

/** The app's login type is the one whose access token binds a token. */
export function idempotentTokenRoutes(kit: RouteKit): RouteDef[] {
  const [issue, authenticate] = [kit.use(IssueIdempotencyToken), kit.use(Authenticate)];
  const perMinute = kit.settings.idempotencyTokenPerMinute;
  return [
    route({
      method: 'get',
      path: '/idempotent/token',
      summary:
        'Issues a one-time X-Idempotent-Token (public; valid on this app only, for ' +
        'token-ttl-seconds). Fetched with an access token, only that session may spend it',
      tags: ['idempotency'],
      // The IP limit first (it also shields the session lookup); a presented access token is then authenticated and counted too.
      guards: [
        kit.rateLimit({ key: 'idempotent-token', windowSeconds: 60, limit: perMinute, limitType: 'IP' }),
        optionalLogin(authenticate, kit.loginType),
        kit.rateLimit({ key: 'idempotent-token-session', windowSeconds: 60, limit: perMinute, limitType: 'SESSION' }),
      ],
      response: IdempotencyToken,
      raises: IssueIdempotencyToken.reasons,
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const issued = await issue.execute({
          scope: (ctx.state as { realm?: string }).realm ?? 'app',
          session: ctx.state.auth?.record.tokenId,
        });
        return { token: issued.token, expiresIn: issued.expiresInSeconds };
      },
    }),
  ];
}
