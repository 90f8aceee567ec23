/** "Who am I" routes: the current user of a login type, from the session snapshot. */
import type { SessionManagers } from '../../../application/session/session-manager';
import { currentUser, requireLogin } from '../guards';
import type { RouteDef } from '../routes';

export function adminMeRoutes(managers: SessionManagers): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/auth/me',
      summary: 'The current admin user (LoginContext.getAdminUser())',
      tags: ['auth'],
      guards: [requireLogin(managers, 'admin')],
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return { userId: u.userId, username: u.username, nickname: u.nickname ?? u.username, roles: u.roles, permissions: u.permissions };
      },
    },
  ];
}

export function webProfileRoutes(managers: SessionManagers): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/user/profile',
      summary: "The current member's profile",
      tags: ['user'],
      guards: [requireLogin(managers, 'web')],
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return { userId: u.userId, username: u.username, nickname: u.nickname ?? u.username };
      },
    },
  ];
}
