/**
 * The audit logs (docs/audit.md): an administrator searches the login log and the operation log;
 * every user sees their own recent logins. Reads: none of them records an event.
 */
import { z } from 'zod';
import { ListOwnLogins } from '../../../application/audit/list-own-logins';
import { SearchAuditLog } from '../../../application/audit/search-audit-log';
import { SECURITY_EVENT_TYPES } from '../../../application/audit/security-event';
import type { LoginType } from '../../../domain/login-type';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { AuditLogPage, OwnLogin } from '../schemas/audit-schemas';

/** A time: ms since epoch, or anything Date.parse reads (`2025-01-31T14:05:09Z`, `2025-01-31`). */
const instant = z
  .string()
  .max(40)
  .transform((s, ctx) => {
    const ms = /^\d{1,15}$/.test(s) ? Number(s) : Date.parse(s);
    if (Number.isNaN(ms)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected ms since epoch or an ISO 8601 time' });
    return ms;
  });

const page = {
  from: instant.optional().openapi({ description: 'Events at or after (ms since epoch or ISO 8601)' }),
  to: instant.optional().openapi({ description: 'Events at or before (ms since epoch or ISO 8601)' }),
  cursor: z
    .string()
    .regex(/^[0-9a-f-]{1,64}$/)
    .optional()
    .openapi({ description: "The previous page's nextCursor" }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: 'Events per page (1-100)' }),
};
const name = z.string().min(1).max(64).optional();

const loginLogQuery = z.object({
  loginType: z.enum(['admin', 'web']).default('admin').openapi({ description: "Whose log: the admin users' or the members'" }),
  username: name,
  ip: z.string().min(1).max(45).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  type: z.enum(SECURITY_EVENT_TYPES).optional().openapi({ description: 'One event type (login, logout, access-denied, ...)' }),
  ...page,
});

const operationLogQuery = z.object({
  actor: name,
  action: z.string().min(1).max(64).optional().openapi({ description: 'user.create, user.roles, user.disable, session.kickout, ...' }),
  target: z.string().min(1).max(128).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  ...page,
});

/** GET /auth/me/logins (admin), GET /user/logins (web): the caller's recent logins. */
function ownLoginsRoute(kit: RouteKit, type: LoginType, path: string, tags: string[]): RouteDef {
  const own = kit.use(ListOwnLogins);
  return route({
    method: 'get',
    path,
    summary:
      'Your recent logins, newest first (successes and failed attempts on your username): ' +
      'time, IP, OS, browser; `current` marks this session',
    tags,
    guards: [kit.guards.requireLogin(type)],
    response: z.array(OwnLogin),
    raises: ListOwnLogins.reasons,
    handler: async (ctx) => {
      const u = currentUser(ctx);
      return own.execute({ loginType: type, username: u.username, tokenId: u.tokenId, limit: 20 });
    },
  });
}

export function adminAuditRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const login = kit.guards.requireLogin(type);
  const search = kit.use(SearchAuditLog);
  return [
    route({
      method: 'get',
      path: '/monitor/login-logs',
      summary: 'The login log (logins, logouts, refusals), newest first, filtered, paged by cursor',
      tags: ['monitor'],
      guards: [login, kit.guards.requirePermission(type, 'monitor:logininfor:list')],
      query: loginLogQuery,
      searchTerms: ['username', 'ip'],
      response: AuditLogPage,
      raises: [...SearchAuditLog.reasons, 'validation-failed'],
      handler: async (_ctx, { query: q }) => {
        const { loginType, type: eventType, ...filters } = q;
        return search.execute({ ...filters, loginType, log: 'login', ...(eventType === undefined ? {} : { types: [eventType] }) });
      },
    }),
    route({
      method: 'get',
      path: '/monitor/operation-logs',
      summary: "The operation log (administrators' changes: who, what, to what, outcome), newest first, filtered, paged by cursor",
      tags: ['monitor'],
      guards: [login, kit.guards.requirePermission(type, 'monitor:operlog:list')],
      query: operationLogQuery,
      searchTerms: ['actor', 'action', 'target'],
      response: AuditLogPage,
      raises: [...SearchAuditLog.reasons, 'validation-failed'],
      handler: async (_ctx, { query }) => search.execute({ ...query, loginType: type, log: 'operation' }),
    }),
    ownLoginsRoute(kit, type, '/auth/me/logins', ['auth']),
  ];
}

export function webAuditRoutes(kit: RouteKit): RouteDef[] {
  return [ownLoginsRoute(kit, 'web', '/user/logins', ['user'])];
}
