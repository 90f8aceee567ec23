/**
 * An administrator's own sessions ("devices"), as the web app's members have theirs (/user/sessions):
 * list them by page, with the online list's row and `current` on the caller's, and end one of them.
 */
import { EndSession } from '../../../application/auth/end-session';
import { ListSessions } from '../../../application/auth/list-sessions';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { ownPage, OwnSessionsAnswer, OwnSessionsQuery } from '../schemas/own-session-schemas';

export function adminSessionRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const login = kit.guards.requireLogin(type);
  const [listSessions, endSession] = [kit.use(ListSessions), kit.use(EndSession)];
  return [
    route({
      method: 'get',
      path: '/auth/sessions',
      summary:
        "Your live admin sessions, oldest first, with the online list's columns; `current` marks this one. ?page=&size=: a page " +
        'with the exact total; without either, the bare array (the first 500)',
      tags: ['auth'],
      guards: [login],
      query: OwnSessionsQuery,
      response: OwnSessionsAnswer,
      raises: ListSessions.reasons,
      handler: async (ctx, { query }) => {
        const u = currentUser(ctx);
        const found = await listSessions.page({ loginType: type, userId: u.userId, ...ownPage(query) });
        const list = found.list.map((r) => ({ ...r, current: r.tokenId === u.tokenId }));
        if (query.page !== undefined || query.size !== undefined) return { ...found, list };
        ctx.set('X-Total-Count', String(found.total));
        return list;
      },
    }),
    route({
      method: 'delete',
      path: '/auth/sessions/:tokenId',
      summary: 'End one of your own sessions ("log out that device"); its refresh token dies with it. Not yours or unknown -> 404',
      tags: ['auth'],
      guards: [login],
      successStatus: 204,
      raises: EndSession.reasons,
      audit: { type: 'session-ended', target: (p) => p.tokenId },
      handler: async (ctx, { params: { tokenId } }) => {
        // Only the caller's own sessions are searched: another user's token id is "not found", revealing nothing.
        await endSession.execute({ loginType: type, tokenId, kick: false, ownerId: currentUser(ctx).userId });
      },
    }),
  ];
}
