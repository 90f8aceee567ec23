/**
 * Menu administration (`/system/menu`): the admin SPA's menu tree, whose buttons' permissions are what roles grant.
 * A change of a menu reaches the live sessions of the users of the roles holding it at once; it is sensitive (a
 * recent re-authentication, and the caller must hold the menu's permission before and after).
 */
import { z } from 'zod';
import { CreateMenu } from '../../../application/menus/create-menu';
import { DeleteMenu } from '../../../application/menus/delete-menu';
import { GetMenu } from '../../../application/menus/get-menu';
import { ListMenus } from '../../../application/menus/list-menus';
import { UpdateMenu } from '../../../application/menus/update-menu';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { Menu, MenuChange, MenuDeleted, MenuNode } from '../schemas/menu-schemas';

const ID = z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a menu id');
/** One permission string (`system:user:add`, `*` segments allowed) or several, comma-separated. */
const PERMISSION = /^[A-Za-z0-9_*-]+(:[A-Za-z0-9_*-]+)*(\s*,\s*[A-Za-z0-9_*-]+(:[A-Za-z0-9_*-]+)*)*$/;

/**
 * A route path as vue-router takes it (`/system/user`, `/job/:id?`), never `//…` or `/\…` (another host to a browser),
 * or an http(s) URL (an external link); no white space, backslash, quote or angle bracket, so never `javascript:`.
 */
const ROUTE_PATH = /^\/(?![/\\])[^\s\\"'<>]*$/;
const EXTERNAL_LINK = /^https?:\/\/[^\s\\"'<>]+$/i;

/** A whole menu (PUT replaces every field; what is left out takes its default). */
export const MenuBody = z
  .object({
    parentId: ID.nullable().default(null).openapi({ description: 'The directory or page above; null: top level' }),
    type: z.enum(['M', 'C', 'F']).openapi({ description: 'M directory, C page, F button' }),
    title: z.string().trim().min(1).max(64),
    name: z
      .string()
      .trim()
      .max(64)
      .regex(/^([A-Za-z][A-Za-z0-9_-]*)?$/, 'a route name: a letter, then letters, digits, _ or -')
      .default('')
      .openapi({ description: 'The vue-router route name; empty: derived from the path' }),
    path: z
      .string()
      .trim()
      .max(255)
      .refine((v) => v === '' || ROUTE_PATH.test(v) || EXTERNAL_LINK.test(v), 'a path starting with / (not // or /\\), or an http(s) URL')
      .default('')
      .openapi({ description: 'The route path (directories and pages): `/…`, or an http(s) URL for an external link; empty for buttons' }),
    component: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .regex(/^[A-Za-z0-9_./-]+$/, "a view under the SPA's views, e.g. system/user/index")
      .nullable()
      .default(null),
    icon: z.string().trim().max(100).default(''),
    orderNum: z.number().int().min(-1000000).max(1000000).default(0),
    visible: z.boolean().default(true),
    keepAlive: z.boolean().default(false),
    permission: z
      .string()
      .trim()
      .max(255)
      .regex(PERMISSION, 'permission strings like system:user:add, comma-separated')
      .nullable()
      .default(null),
    enabled: z.boolean().default(true),
  })
  .strict()
  .superRefine((m, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (m.type !== 'F' && m.path === '') problem('path', 'a directory or page needs a path');
    if (m.type === 'F' && m.path !== '') problem('path', 'a button has no path');
    if (m.type !== 'C' && m.component !== null) problem('component', 'only a page has a component');
  });

type Guards = (permission: string) => ReturnType<RouteKit['guards']['requirePermission']>[];

export function menuAdminRoutes(kit: RouteKit): RouteDef[] {
  const login = kit.guards.requireLogin('admin');
  const may: Guards = (permission) => [login, kit.guards.requirePermission('admin', permission)];
  const [list, get] = [kit.use(ListMenus), kit.use(GetMenu)];
  return [
    route({
      method: 'get',
      path: '/system/menu',
      summary: 'The whole menu tree (directories, pages, buttons; disabled ones too), siblings in order',
      tags: ['system-menu'],
      guards: may('system:menu:list'),
      response: z.array(MenuNode),
      raises: ListMenus.reasons,
      handler: async () => list.execute(),
    }),
    route({
      method: 'get',
      path: '/system/menu/:id',
      summary: 'One menu',
      tags: ['system-menu'],
      guards: may('system:menu:query'),
      response: Menu,
      raises: GetMenu.reasons,
      handler: async (_ctx, { params }) => get.execute({ id: params.id }),
    }),
    ...menuWrites(kit, may),
  ];
}

/** Adding, replacing and deleting menus. */
function menuWrites(kit: RouteKit, may: Guards): RouteDef[] {
  const [create, update, remove] = [kit.use(CreateMenu), kit.use(UpdateMenu), kit.use(DeleteMenu)];
  return [
    route({
      method: 'post',
      path: '/system/menu',
      summary: 'Add a menu under a directory or page (or at the top); an unknown parent or a button as parent -> 400',
      tags: ['system-menu'],
      guards: may('system:menu:add'),
      body: MenuBody,
      successStatus: 201,
      response: Menu,
      raises: CreateMenu.reasons,
      audit: {
        type: 'menu-created',
        action: 'menu.create',
        target: (_p, created) => (created as { id?: string } | undefined)?.id,
        summary: (b) => `type=${b.type} title=${b.title} parent=${b.parentId ?? '-'} permission=${b.permission ?? '-'}`,
      },
      handler: async (_ctx, { body }) => create.execute({ fields: body }),
    }),
    route({
      method: 'put',
      path: '/system/menu/:id',
      summary:
        'Replace a menu; a parent that is the menu or below it (a cycle) -> 400. The users of the roles holding it get its new ' +
        'permission and status at once',
      tags: ['system-menu'],
      guards: [...may('system:menu:edit'), kit.guards.requireRecentAuth('admin')],
      body: MenuBody,
      response: MenuChange,
      raises: UpdateMenu.reasons,
      audit: {
        type: 'menu-changed',
        action: 'menu.edit',
        target: (p) => p.id,
        summary: (b) => `parent=${b.parentId ?? '-'} permission=${b.permission ?? '-'} enabled=${b.enabled}`,
      },
      handler: async (ctx, { body, params }) => update.execute({ actor: currentUser(ctx), id: params.id, fields: body }),
    }),
    route({
      method: 'delete',
      path: '/system/menu/:id',
      summary: 'Delete a menu; refused (409) while menus are below it or a role holds it',
      tags: ['system-menu'],
      guards: may('system:menu:remove'),
      response: MenuDeleted,
      raises: DeleteMenu.reasons,
      audit: { type: 'menu-deleted', action: 'menu.delete', target: (p) => p.id },
      handler: async (_ctx, { params }) => {
        await remove.execute({ id: params.id });
        return { id: params.id, deleted: true as const };
      },
    }),
  ];
}
