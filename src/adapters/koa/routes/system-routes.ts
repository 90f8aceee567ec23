/**
 * Admin handlers that use the permission guards for real. Each route's `guards` array is the one
 * place its protection is declared (login type, permission, later idempotency/signing).
 */
import { z } from 'zod';
import { EndSession } from '../../../application/auth/end-session';
import { ListOnlineSessions } from '../../../application/auth/list-online-sessions';
import { DEVICE_TYPE_PATTERN } from '../../../domain/device-type';
import { USERNAME_PATTERN } from '../../../domain/password';
import { CreateUser } from '../../../application/users/create-user';
import { ListUsers } from '../../../application/users/list-users';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { parseQuery, route, type RouteDef } from '../routes';
import { KickedOutSession, OnlineSessionPage, User, UserPage } from '../schemas/account-schemas';

const createUserBody = z
  .object({
    username: z.string().regex(USERNAME_PATTERN, 'must be 3-32 characters of A-Z a-z 0-9 _ . -'),
    /** RSA-encrypted like the login password. */
    password: z.string().min(1).max(4096),
    nickname: z.string().trim().min(1).max(64).optional(),
    roles: z.array(z.string().min(1).max(64)).min(1).max(32),
  })
  .strict();

const onlineQuery = z.object({
  page: z.coerce.number().int().min(1).max(10000).default(1).openapi({ description: 'Page number, from 1 (page × size ≤ 10,000)' }),
  size: z.coerce.number().int().min(1).max(500).default(20).openapi({ description: 'Sessions per page (1-500)' }),
  username: z.string().trim().min(1).max(64).optional().openapi({ description: "Only this user's sessions (the name in any case)" }),
  ip: z.string().trim().min(1).max(45).optional().openapi({ description: 'Only sessions from this client IP (exact)' }),
  deviceType: z
    .string()
    .regex(DEVICE_TYPE_PATTERN, 'must be 1-32 characters of A-Z a-z 0-9 _ -')
    .optional()
    .openapi({ description: 'Only sessions of this device type (exact, case included: PC, APP, H5, DEF, ...)' }),
});

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
});

export function systemRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const login = kit.guards.requireLogin(type);
  const [createUser, listUsers] = [kit.use(CreateUser), kit.use(ListUsers)];
  return [
    route({
      method: 'post',
      path: '/system/user',
      summary: 'Create an admin user (password RSA-encrypted; duplicate username -> 409)',
      tags: ['system'],
      // Duplicate-submission protection (the seed's PARAM mode) after the permission check, so refused callers take no lock.
      guards: [
        login,
        kit.guards.requirePermission(type, 'system:user:add'),
        kit.idempotent({ mode: 'PARAM', ttlSeconds: kit.settings.idempotencyParamTtlSeconds }),
      ],
      body: createUserBody,
      response: User,
      raises: CreateUser.delegatedReasons,
      // The summary names the new account and its roles; the password is never part of it.
      audit: { type: 'user-created', action: 'user.create', summary: (b) => `username=${b.username} roles=${b.roles.join(',')}` },
      handler: async (ctx, { body: b }) =>
        createUser.execute({
          username: b.username,
          password: b.password,
          encrypted: true,
          nickname: b.nickname,
          roles: b.roles,
          actor: currentUser(ctx),
        }),
    }),
    route({
      method: 'get',
      path: '/system/user/list',
      summary: 'Admin users, paged (?page=1&pageSize=20)',
      tags: ['system'],
      guards: [login, kit.guards.requirePermission(type, 'system:user:list')],
      response: UserPage,
      raises: [...ListUsers.reasons, 'validation-failed'],
      // Parsed in the handler: declared as `query`, page and pageSize would join the API description, which does not list them yet.
      handler: async (ctx) => listUsers.execute(parseQuery(pageQuery, ctx.query)),
    }),
    ...onlineRoutes(kit),
  ];
}

/** The online list and the kickout of one session (monitor:online:*). */
function onlineRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const login = kit.guards.requireLogin(type);
  const [listOnline, endSession] = [kit.use(ListOnlineSessions), kit.use(EndSession)];
  return [
    route({
      method: 'get',
      path: '/monitor/online',
      summary:
        'Live admin sessions, oldest first, paged (?page=&size=) and filtered (?username=, ?ip=, ?deviceType=): token id, ' +
        'user, login time, last activity, client IP, OS, browser, device type',
      tags: ['monitor'],
      guards: [login, kit.guards.requirePermission(type, 'monitor:online:list')],
      query: onlineQuery,
      searchTerms: ['username', 'ip'],
      response: OnlineSessionPage,
      raises: ListOnlineSessions.reasons,
      handler: async (_ctx, { query }) => listOnline.execute({ loginType: type, ...query }),
    }),
    route({
      method: 'delete',
      path: '/monitor/online/:tokenId',
      summary: 'Force a session out; its token then answers 401 "kicked out"',
      tags: ['monitor'],
      guards: [login, kit.guards.requirePermission(type, 'monitor:online:forceLogout')],
      response: KickedOutSession,
      raises: EndSession.reasons,
      audit: { type: 'kickout', action: 'session.kickout', target: (p) => p.tokenId },
      handler: async (_ctx, { params: { tokenId } }) => {
        await endSession.execute({ loginType: type, tokenId, kick: true });
        return { tokenId, kickedOut: true };
      },
    }),
  ];
}
