/**
 * Account administration that must reach live sessions at once: role changes replace the
 * permission snapshot of every live session of the user; disabling ends them (401 next request).
 */
import { z } from 'zod';
import { ChangeUserRoles } from '../../../application/users/change-user-roles';
import { DisableUser } from '../../../application/users/disable-user';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { DisabledUser, UserAccess } from '../schemas/account-schemas';

const ROLE_KEY = z.string().min(1, 'a role key must not be empty').max(64);
const RolesBody = z.object({ roles: z.array(ROLE_KEY).max(100) });

/** Mounted only where the directory can change accounts (their use cases need TOKENS.UserAdministration). */
export function userAdminRoutes(kit: RouteKit): RouteDef[] {
  const edit = [kit.guards.requireLogin('admin'), kit.guards.requirePermission('admin', 'system:user:edit')];
  const [changeRoles, disable] = [kit.use(ChangeUserRoles), kit.use(DisableUser)];
  return [
    route({
      method: 'post',
      path: '/system/user/:id/roles',
      summary: "Replace a user's roles; every live session of the user gets the new permissions at once",
      tags: ['system-user'],
      guards: edit,
      body: RolesBody,
      response: UserAccess,
      raises: ChangeUserRoles.reasons,
      audit: { type: 'roles-changed', action: 'user.roles', target: (p) => p.id, summary: (b) => `roles=${b.roles.join(',')}` },
      handler: async (ctx, { body, params }) => {
        const r = await changeRoles.execute({ actor: currentUser(ctx), userId: params.id, roles: body.roles });
        return { ...r.user, sessionsUpdated: r.sessions.action === 'updated' ? r.sessions.sessions : 0 };
      },
    }),
    route({
      method: 'post',
      path: '/system/user/:id/disable',
      summary: 'Disable a user; every live session of the user ends at once (401 token-kicked-out)',
      tags: ['system-user'],
      guards: edit,
      response: DisabledUser,
      raises: DisableUser.reasons,
      audit: { type: 'user-disabled', action: 'user.disable', target: (p) => p.id },
      handler: async (ctx, { params }) => {
        const r = await disable.execute({ actor: currentUser(ctx), userId: params.id });
        return { userId: r.userId, username: r.username, enabled: r.enabled, sessionsEnded: r.sessions.sessions };
      },
    }),
  ];
}
