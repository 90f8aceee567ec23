/**
 * `GET /idempotent/token` (both apps): a one-time token for routes guarded by idempotent({mode: 'TOKEN'}).
 * Public; a caller that presents an access token gets a token bound to that session (only that
 * session may spend it), so a presented access token must be valid (401 otherwise).
 */
import { Authenticate } from '../../../application/auth/authenticate';
import { IssueIdempotencyToken } from '../../../application/idempotency/issue-idempotency-token';
import type { RouteDef } from '../routes';
import { IdempotencyToken } from '../schemas/account-schemas';
import type { AppContext } from '../state';

export interface IdempotentTokenDeps {
  readonly issue: IssueIdempotencyToken;
  readonly authenticate: Authenticate;
  /** The app's login type, whose access token binds a token. */
  readonly loginType: string;
}

/** The token id of the session the request presents, or undefined when it presents none. */
async function presentedSession(ctx: AppContext, authenticate: Authenticate, loginType: string): Promise<string | undefined> {
  const source = authenticate.source(loginType);
  const header = ctx.get(source.name) || undefined;
  const cookie = header === undefined && source.readCookie ? ctx.cookies.get(source.name) || undefined : undefined;
  if (header === undefined && cookie === undefined) return undefined;
  const { record } = await authenticate.execute({ loginType, header, cookie });
  return record.tokenId;
}

export function idempotentTokenRoutes(deps: IdempotentTokenDeps): RouteDef[] {
  deps.authenticate.source(deps.loginType); // fails at start-up for an unknown login type
  return [
    {
      method: 'get',
      path: '/idempotent/token',
      summary:
        'Issues a one-time X-Idempotent-Token (public; valid on this app only, for token-ttl-seconds). Fetched with an access token, only that session may spend it',
      tags: ['idempotency'],
      response: IdempotencyToken,
      // A presented access token is authenticated: its failures are this route's too.
      raises: [...Authenticate.reasons, ...IssueIdempotencyToken.reasons],
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const session = await presentedSession(ctx, deps.authenticate, deps.loginType);
        const issued = await deps.issue.execute({ scope: (ctx.state as { realm?: string }).realm ?? 'app', session });
        return { token: issued.token, expiresIn: issued.expiresInSeconds };
      },
    },
  ];
}
