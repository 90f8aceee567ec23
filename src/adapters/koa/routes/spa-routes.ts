/**
 * `GET /auth/routes`: the admin SPA's routes for the caller (vue-pure-admin's `getAsyncRoutes`), built from the menu
 * tree and the session's permissions. The answer is serialised once per tree and permission set (MenuTreeCache) and
 * written as it is; its ETag lets a client revalidate (`If-None-Match`: 304, no body).
 */
import { GetRoutes } from '../../../application/menus/get-routes';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { RoutesEnvelope } from '../schemas/menu-schemas';

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 13.1.2; `*` matches any). */
export function noneMatch(header: string, etag: string): boolean {
  if (header === '') return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

export function adminSpaRoutes(kit: RouteKit): RouteDef[] {
  const getRoutes = kit.use(GetRoutes);
  return [
    route({
      method: 'get',
      path: '/auth/routes',
      summary:
        "The admin SPA's routes for the caller (vue-router, vue-pure-admin's shape): the directories and pages its " +
        "permissions open, each page's `meta.auths` the permissions of its buttons it holds; answered with an ETag",
      tags: ['auth'],
      guards: [kit.guards.requireLogin('admin')],
      raw: {
        content: { 'application/json': RoutesEnvelope },
        emptyStatuses: { 304: 'Not modified: the If-None-Match header names the current ETag (no body)' },
        headers: {
          ETag: 'The entity tag of the answer (it changes with the menu tree and with the permissions of the session)',
          'Cache-Control': 'private, no-cache: a client may keep the answer and revalidate it with If-None-Match',
        },
      },
      raises: GetRoutes.reasons,
      handler: async (ctx) => {
        const answer = await getRoutes.execute({ permissions: currentUser(ctx).permissions });
        ctx.set('ETag', answer.etag);
        ctx.set('Cache-Control', 'private, no-cache');
        ctx.vary('Authorization'); // beside CORS's Origin, not over it
        if (noneMatch(ctx.get('If-None-Match'), answer.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.type = 'application/json';
        ctx.body = answer.body;
      },
    }),
  ];
}
