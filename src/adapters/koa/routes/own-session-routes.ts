/**
 * An administrator's own sessions ("devices"), as the web app's members have theirs (/user/sessions):
 * list them, with the online list's row and `current` on the caller's, and end one of them.
 */
import { z } from 'zod';
import { EndSession } from '../../../application/auth/end-session';
import { ListSessions } from '../../../application/auth/list-sessions';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { OwnSession } from '../schemas/account-schemas';

export function adminSessionRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const login = kit.guards.requireLogin(type);
  const [listSessions, endSession] = [kit.use(ListSessions), kit.use(EndSession)];
  return [
    route({
      method: 'get',
      path: '/auth/sessions',
      summary: "Your live admin sessions, oldest first, with the online list's columns; `current` marks this one",
      tags: ['auth'],
      guards: [login],
      response: z.array(OwnSession),
      raises: ListSessions.reasons,
      handler: async (ctx) => {
        const u = currentUser(ctx);
        const rows = await listSessions.execute({ loginType: type, userId: u.userId });
        return rows.map((r) => ({ ...r, current: r.tokenId === u.tokenId }));
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
