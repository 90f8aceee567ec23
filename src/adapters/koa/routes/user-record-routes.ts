/**
 * The account records of user administration: the filtered list, one account, its profile edit,
 * its deletion (with every login of it) and the kickout of every login of it. Mounted with userAdminRoutes, where the directory can
 * change accounts. Changes follow the delegation rules (src/application/users/delegation.ts).
 */
import { z } from 'zod';
import { DeleteUser } from '../../../application/users/delete-user';
import { FindUsers } from '../../../application/users/find-users';
import { GetUser } from '../../../application/users/get-user';
import { KickoutUser } from '../../../application/users/kickout-user';
import { UpdateUser } from '../../../application/users/update-user';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { UserPage } from '../schemas/account-schemas';
import { UserDetails } from '../schemas/lifecycle-schemas';
import { EndLoginsBody } from '../schemas/login-schemas';
import { UserDeleted, UserKickedOut, UserProfile } from '../schemas/user-admin-schemas';

/**
 * Empty, an http(s) URL, or a path on the SPA's own origin (`/…`, not `//…` nor `/\…`, which browsers read as `//…`):
 * never `javascript:` or `data:`. No backslash, quote, angle bracket or white space anywhere: no image URL needs them.
 */
const AVATAR = z
  .string()
  .trim()
  .max(255)
  .refine(
    (v) => v === '' || /^https?:\/\/[^\s\\"'<>]+$/i.test(v) || /^\/(?![/\\])[^\s\\"'<>]*$/.test(v),
    'must be empty, an http(s) URL or a path starting with / (no backslash, quote or angle bracket)',
  );
/** As given (trimmed): digits, spaces, hyphens and brackets, an optional leading +. */
const PHONE = z
  .string()
  .trim()
  .min(3)
  .max(32)
  .regex(/^\+?[0-9](?:[0-9 ()-]*[0-9])?$/, 'digits, spaces, hyphens and brackets, with an optional leading +');
/** At most 191 characters: the unique index of the folded address holds no more. */
const EMAIL = z.string().trim().max(191).email('must be an e-mail address');

/** Absent: unchanged; `email` / `phone` null: cleared. At least one field. */
const ProfileBody = z
  .object({
    nickname: z.string().trim().min(1).max(64).optional(),
    avatar: AVATAR.optional(),
    email: EMAIL.nullable().optional(),
    phone: PHONE.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one of nickname, avatar, email, phone' });

const UserQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1).openapi({ description: 'Page number, from 1' }),
  pageSize: z.coerce.number().int().min(1).max(500).default(20).openapi({ description: 'Accounts per page (1-500)' }),
  username: z.string().trim().min(1).max(64).optional().openapi({ description: 'Part of the username, any case' }),
  status: z.enum(['enabled', 'disabled']).optional().openapi({ description: "The account's flag" }),
  role: z.string().min(1).max(64).optional().openapi({ description: 'A role key the account is assigned (enabled or not)' }),
});

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** What `PUT /system/user/:id` answers: the profile as saved, and how many live sessions took it. */
function profileOf(r: Awaited<ReturnType<UpdateUser['execute']>>) {
  const u = r.user;
  return {
    userId: u.id,
    username: u.username,
    nickname: u.nickname,
    avatar: u.avatar,
    email: u.email ?? null,
    emailVerified: u.emailVerified === true,
    phone: u.phone ?? null,
    sessionsUpdated: r.sessionsUpdated,
  };
}

export function userRecordRoutes(kit: RouteKit): RouteDef[] {
  const login = kit.guards.requireLogin('admin');
  const may = (permission: string) => [login, kit.guards.requirePermission('admin', permission)];
  const [find, getUser, update, remove] = [kit.use(FindUsers), kit.use(GetUser), kit.use(UpdateUser), kit.use(DeleteUser)];
  return [
    route({
      method: 'get',
      path: '/system/user',
      summary: 'Admin users, paged and filtered: ?page=&pageSize=&username= (part, any case)&status=enabled|disabled&role=<key>',
      tags: ['system-user'],
      guards: may('system:user:list'),
      query: UserQuery,
      searchTerms: ['username', 'role'],
      response: UserPage,
      raises: FindUsers.reasons,
      handler: async (_ctx, { query }) => find.execute(query),
    }),
    route({
      method: 'get',
      path: '/system/user/:id',
      summary: 'One user and the state of the account: enabled, disabled reason and until, locked until, must change password, contact',
      tags: ['system-user'],
      guards: may('system:user:query'),
      response: UserDetails,
      raises: GetUser.reasons,
      handler: async (_ctx, { params }) => {
        const u = await getUser.execute({ userId: params.id });
        return { ...u, disabledUntil: iso(u.disabledUntil), lockedUntil: iso(u.lockedUntil) };
      },
    }),
    route({
      method: 'put',
      path: '/system/user/:id',
      summary: "Edit a user's profile {nickname?, avatar?, email?, phone?} (absent: unchanged; email/phone null: cleared)",
      tags: ['system-user'],
      guards: may('system:user:edit'),
      body: ProfileBody,
      response: UserProfile,
      raises: [...UpdateUser.reasons, 'validation-failed'],
      // The summary names the fields changed, never their values (an address or a number is personal data).
      audit: { type: 'user-updated', action: 'user.update', target: (p) => p.id, summary: (b) => `fields=${Object.keys(b).join(',')}` },
      handler: async (ctx, { body, params }) =>
        profileOf(await update.execute({ actor: currentUser(ctx), userId: params.id, change: body })),
    }),
    route({
      method: 'delete',
      path: '/system/user/:id',
      summary:
        'Delete a user: every live session ends at once (401 token-kicked-out), its refresh tokens, device cookies and second ' +
        'factors go with it; never your own account',
      tags: ['system-user'],
      guards: [...may('system:user:remove'), kit.guards.requireRecentAuth('admin')],
      response: UserDeleted,
      raises: DeleteUser.reasons,
      audit: { type: 'user-deleted', action: 'user.delete', target: (p) => p.id },
      handler: async (ctx, { params }) => remove.execute({ actor: currentUser(ctx), userId: params.id }),
    }),
    kickoutRoute(kit),
  ];
}

/** POST /system/user/:id/kickout: what `sessions kickout admin <userId>` of the CLI does, over HTTP. */
function kickoutRoute(kit: RouteKit): RouteDef {
  const kickout = kit.use(KickoutUser);
  return route({
    method: 'post',
    path: '/system/user/:id/kickout',
    summary:
      'End every login of a user at once: live sessions (401 token-kicked-out), refresh tokens, device cookies; the account ' +
      'stays and may log in again. {deviceType}: only the logins of that device type (the device cookies stay)',
    tags: ['system-user'],
    guards: [kit.guards.requireLogin('admin'), kit.guards.requirePermission('admin', 'monitor:online:forceLogout')],
    body: EndLoginsBody,
    response: UserKickedOut,
    raises: [...KickoutUser.reasons, 'validation-failed'],
    audit: {
      type: 'user-kicked-out',
      action: 'user.kickout',
      target: (p) => p.id,
      summary: (b) => (b.deviceType === undefined ? undefined : `deviceType=${b.deviceType}`),
    },
    handler: async (ctx, { params, body }) => kickout.execute({ actor: currentUser(ctx), userId: params.id, deviceType: body.deviceType }),
  });
}
