/** "Who am I" routes: the current user of a login type, from the session snapshot. */
import { z } from 'zod';
import { EndSession } from '../../../application/auth/end-session';
import { ListSessions, type OnlineSession } from '../../../application/auth/list-sessions';
import { LogoutAll } from '../../../application/auth/logout-all';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { CurrentUser, LogoutAllResult, MemberProfile, type MemberSession } from '../schemas/account-schemas';
import { MemberSessionsAnswer, ownPage, OwnSessionsQuery } from '../schemas/own-session-schemas';
import { EndLoginsBody } from '../schemas/login-schemas';

export function adminMeRoutes(kit: RouteKit): RouteDef[] {
  return [
    route({
      method: 'get',
      path: '/auth/me',
      summary: 'The current admin user (LoginContext.getAdminUser()); answers on a restricted session too',
      tags: ['auth'],
      guards: [kit.guards.requireLogin('admin', { allowRestricted: true })],
      response: CurrentUser,
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return { userId: u.userId, username: u.username, nickname: u.nickname ?? u.username, roles: u.roles, permissions: u.permissions };
      },
    }),
  ];
}

/** The member's sessions as they see them: `current` marks the caller's own. */
function memberSessions(list: readonly OnlineSession[], callerTokenId: string): z.infer<typeof MemberSession>[] {
  return list.map((s) => ({
    tokenId: s.tokenId,
    loginTime: s.loginTime,
    lastActiveTime: s.lastActiveTime,
    expires: s.expires,
    ipaddr: s.ipaddr,
    userAgent: s.userAgent,
    deviceType: s.deviceType,
    current: s.tokenId === callerTokenId,
  }));
}

/** The member's own account: profile, their sessions ("devices"), ending one or all of them. */
export function webProfileRoutes(kit: RouteKit): RouteDef[] {
  const type = 'web';
  const login = kit.guards.requireLogin(type);
  const [listSessions, endSession, logoutAll] = [kit.use(ListSessions), kit.use(EndSession), kit.use(LogoutAll)];
  return [
    route({
      method: 'get',
      path: '/user/profile',
      summary: "The current member's profile",
      tags: ['user'],
      guards: [login],
      response: MemberProfile,
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return { userId: u.userId, username: u.username, nickname: u.nickname ?? u.username };
      },
    }),
    route({
      method: 'get',
      path: '/user/sessions',
      summary:
        "The member's live sessions, oldest first; `current` marks the caller's own. ?page=&size=: a page with the exact " +
        'total; without either, the bare array (the first 500)',
      tags: ['user'],
      guards: [login],
      query: OwnSessionsQuery,
      response: MemberSessionsAnswer,
      raises: ListSessions.reasons,
      handler: async (ctx, { query }) => {
        const u = currentUser(ctx);
        const found = await listSessions.page({ loginType: type, userId: u.userId, ...ownPage(query) });
        const list = memberSessions(found.list, u.tokenId);
        if (query.page !== undefined || query.size !== undefined) return { ...found, list };
        ctx.set('X-Total-Count', String(found.total));
        return list;
      },
    }),
    route({
      method: 'delete',
      path: '/user/sessions/:tokenId',
      summary: 'End one of your own sessions ("log out that device"); its refresh token dies with it. Not yours or unknown -> 404',
      tags: ['user'],
      guards: [login],
      successStatus: 204,
      raises: EndSession.reasons,
      audit: { type: 'session-ended', target: (p) => p.tokenId },
      handler: async (ctx, { params: { tokenId } }) => {
        // Only the caller's own sessions are searched: another member's token id is "not found", revealing nothing.
        await endSession.execute({ loginType: type, tokenId, kick: false, ownerId: currentUser(ctx).userId });
      },
    }),
    route({
      method: 'post',
      path: '/user/logout-all',
      summary:
        'Log out everywhere: every session of the member ends and their refresh tokens are revoked; {deviceType}: only the ' +
        'sessions of that device type',
      tags: ['user'],
      guards: [login],
      body: EndLoginsBody,
      response: LogoutAllResult,
      raises: [...LogoutAll.reasons, 'validation-failed'],
      audit: { type: 'logout-all' },
      handler: async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = { loginType: type, userId: user.userId, username: user.username, deviceType: body.deviceType } as const;
        return { endedSessions: await logoutAll.execute(input) };
      },
    }),
  ];
}
