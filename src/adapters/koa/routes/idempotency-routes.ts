/** `GET /idempotent/token` (both apps): a one-time token for routes guarded by idempotent({mode: 'TOKEN'}). */
import type { IssueIdempotencyToken } from '../../../application/idempotency/issue-idempotency-token';
import type { RouteDef } from '../routes';

export function idempotentTokenRoutes(issue: IssueIdempotencyToken): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/idempotent/token',
      summary: 'Issues a one-time X-Idempotent-Token (public; valid on this app only, for token-ttl-seconds)',
      tags: ['idempotency'],
      handler: async (ctx) => {
        ctx.set('Cache-Control', 'no-store');
        const issued = await issue.execute({ scope: (ctx.state as { realm?: string }).realm ?? 'app' });
        return { token: issued.token, expiresIn: issued.expiresInSeconds };
      },
    },
  ];
}
