/**
 * Account administration that must reach live sessions at once: role changes replace the
 * permission snapshot of every live session of the user; disabling ends them (401 next request);
 * a password reset ends them and restricts the next login to changing the password.
 */
import { z } from 'zod';
import { ChangeUserRoles } from '../../../application/users/change-user-roles';
import { DisableUser } from '../../../application/users/disable-user';
import { EnableUser } from '../../../application/users/enable-user';
import { ResetUserPassword } from '../../../application/users/reset-user-password';
import { UnlockUser } from '../../../application/users/unlock-user';
import { userViewOf } from '../../../application/users/user-view';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { DisabledUser, User, UserAccess } from '../schemas/account-schemas';
import { PasswordReset, UserUnlocked } from '../schemas/lifecycle-schemas';

const ROLE_KEY = z.string().min(1, 'a role key must not be empty').max(64);
const RolesBody = z.object({ roles: z.array(ROLE_KEY).max(100) });

/** `{newPassword}` (RSA ciphertext, like a login password) or `{generate: true}`: exactly one. */
const ResetBody = z
  .object({ newPassword: z.string().min(1).max(4096).optional(), generate: z.literal(true).optional() })
  .strict()
  .refine((b) => (b.newPassword === undefined) !== (b.generate === undefined), {
    message: 'send either newPassword (RSA-encrypted) or generate: true',
    path: ['newPassword'],
  });

/** `{reason?, until?}`: a timed ban lifts itself at `until` (ISO-8601 with an offset or Z). */
const DisableBody = z
  .object({
    reason: z.string().trim().min(1).max(255).optional(),
    until: z
      .string()
      .datetime({ offset: true, message: 'must be an ISO-8601 time with an offset, e.g. 2026-12-01T00:00:00Z' })
      .refine((v) => Number.isFinite(Date.parse(v)), 'must be a real time (an offset within ±23:59)')
      .optional(),
  })
  .strict();

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Mounted only where the directory can change accounts (their use cases need TOKENS.UserAdministration). */
export function userAdminRoutes(kit: RouteKit): RouteDef[] {
  const login = kit.guards.requireLogin('admin');
  const may = (permission: string) => [login, kit.guards.requirePermission('admin', permission)];
  /** Sensitive: also a recent re-authentication (step-up, svc.step-up.max-age-seconds). */
  const mayNow = (permission: string) => [...may(permission), kit.guards.requireRecentAuth('admin')];
  const [changeRoles, reset] = [kit.use(ChangeUserRoles), kit.use(ResetUserPassword)];
  return [
    route({
      method: 'post',
      path: '/system/user/:id/roles',
      summary: "Replace a user's roles; every live session of the user gets the new permissions at once",
      tags: ['system-user'],
      guards: mayNow('system:user:edit'),
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
      path: '/system/user/:id/password',
      summary:
        "Reset a user's password ({newPassword} RSA-encrypted, or {generate: true}: returned once); every login of the " +
        'user ends and the next one is restricted to changing the password',
      tags: ['system-user'],
      guards: mayNow('system:user:resetPwd'),
      body: ResetBody,
      response: PasswordReset,
      raises: ResetUserPassword.reasons,
      // The summary says how the password was set; the password (given or generated) is never part of an event.
      audit: {
        type: 'password-reset',
        action: 'user.password-reset',
        target: (p) => p.id,
        summary: (b) => (b.generate === true ? 'generated' : 'given'),
      },
      handler: async (ctx, { body, params }) => {
        const input = { actor: currentUser(ctx), userId: params.id, generate: body.generate === true };
        const r = await reset.execute(body.newPassword === undefined ? input : { ...input, newPassword: body.newPassword });
        ctx.set('Cache-Control', 'no-store');
        return { ...r, mustChangePassword: true as const };
      },
    }),
    ...stateRoutes(kit, may, mayNow),
  ];
}

type Guards = (permission: string) => ReturnType<RouteKit['guards']['requirePermission']>[];

/** Enable, disable, unlock. */
function stateRoutes(kit: RouteKit, may: Guards, mayNow: Guards): RouteDef[] {
  const [disable, enable, unlock] = [kit.use(DisableUser), kit.use(EnableUser), kit.use(UnlockUser)];
  return [
    route({
      method: 'post',
      path: '/system/user/:id/disable',
      summary:
        'Disable a user, optionally {reason, until} (a timed ban that lifts itself); every live session of the user ends at ' +
        'once (401 token-kicked-out), and so do its refresh tokens and device cookies',
      tags: ['system-user'],
      guards: mayNow('system:user:edit'),
      body: DisableBody,
      response: DisabledUser,
      raises: DisableUser.reasons,
      audit: {
        type: 'user-disabled',
        action: 'user.disable',
        target: (p) => p.id,
        summary: (b) =>
          [b.until === undefined ? '' : `until=${b.until}`, b.reason ? `reason=${b.reason}` : ''].filter(Boolean).join(' ') || undefined,
      },
      handler: async (ctx, { body, params }) => {
        const until = body.until === undefined ? null : Date.parse(body.until);
        const r = await disable.execute({ actor: currentUser(ctx), userId: params.id, reason: body.reason ?? null, until });
        return { ...r, disabledUntil: iso(r.disabledUntil) };
      },
    }),
    route({
      method: 'post',
      path: '/system/user/:id/enable',
      summary: 'Enable a disabled (or banned) user again; its reason and ban end are cleared',
      tags: ['system-user'],
      guards: may('system:user:edit'),
      response: User,
      raises: EnableUser.reasons,
      audit: { type: 'user-enabled', action: 'user.enable', target: (p) => p.id },
      handler: async (ctx, { params }) => userViewOf(await enable.execute({ actor: currentUser(ctx), userId: params.id })),
    }),
    route({
      method: 'post',
      path: '/system/user/:id/unlock',
      summary: "Unlock a user locked by failed logins: the account's failure budget and its device cookies' are cleared",
      tags: ['system-user'],
      guards: may('system:user:unlock'),
      response: UserUnlocked,
      raises: UnlockUser.reasons,
      audit: { type: 'account-unlocked', action: 'user.unlock', target: (p) => p.id },
      handler: async (ctx, { params }) => ({
        ...(await unlock.execute({ actor: currentUser(ctx), userId: params.id })),
        unlocked: true as const,
      }),
    }),
  ];
}
