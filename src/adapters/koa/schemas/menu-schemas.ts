/**
 * The success payloads of the SPA's routes (`GET /auth/routes`) and of menu and role administration: named zod schemas
 * with a description and an example, like account-schemas.ts. The two trees (routes, menus) are recursive: their
 * `children` are described by a reference to the schema itself (zod-to-openapi 7 cannot walk `z.lazy`).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { AsyncRoute as AsyncRouteValue } from '../../../domain/menu-routes';
import type { Menu as MenuValue } from '../../../domain/menu';

extendZodWithOpenApi(z);

/** An array of `name`, described as an array of references to the component `name`. */
function childrenOf<T>(name: string, item: () => z.ZodType<T>, description: string) {
  return z.array(z.lazy(item)).openapi({ type: 'array', items: { $ref: `#/components/schemas/${name}` } as never, description });
}

const RouteMeta = z
  .object({
    title: z.string(),
    icon: z.string().openapi({ description: 'An icon name the SPA understands; empty: none' }),
    rank: z.number().int().openapi({ description: 'Order among siblings (the menu order number)' }),
    showLink: z.boolean().openapi({ description: 'false: routed but not shown in the menu' }),
    keepAlive: z.boolean(),
    auths: z.array(z.string()).openapi({ description: "Pages: the permissions of the page's buttons that the caller holds" }),
  })
  .openapi({ description: 'vue-pure-admin route meta' });

const ROUTE_EXAMPLE = {
  path: '/system',
  name: 'System',
  redirect: '/system/user',
  meta: { title: 'System', icon: 'ri:settings-3-line', rank: 1, showLink: true, keepAlive: false, auths: [] },
  children: [
    {
      path: '/system/user',
      name: 'SystemUser',
      component: 'system/user/index',
      meta: { title: 'Users', icon: 'ri:admin-line', rank: 1, showLink: true, keepAlive: false, auths: ['system:user:add'] },
      children: [],
    },
  ],
};

export const AsyncRoute: z.ZodType<AsyncRouteValue> = z
  .object({
    path: z.string(),
    name: z.string().openapi({ description: 'The route name (the menu route name, else derived from the path)' }),
    component: z.string().optional().openapi({ description: "Pages: the view under the SPA's views" }),
    redirect: z.string().optional().openapi({ description: 'Directories: the path of the first child' }),
    meta: RouteMeta,
    children: childrenOf('AsyncRoute', () => AsyncRoute, 'The routes below, in order'),
  })
  .openapi('AsyncRoute', {
    description: 'A route of the admin SPA (vue-router, as vue-pure-admin builds them): a directory or a page the caller may see',
    example: ROUTE_EXAMPLE,
  });

/** The body of `GET /auth/routes` (written pre-serialised by its raw route, in the envelope). */
export const RoutesEnvelope = z.object({ code: z.literal(0), message: z.literal('ok'), data: z.array(AsyncRoute) });

const MENU_FIELDS = {
  parentId: z.string().nullable().openapi({ description: 'The directory or page above; null: top level' }),
  type: z.enum(['M', 'C', 'F']).openapi({ description: 'M directory, C page, F button' }),
  title: z.string(),
  name: z.string().openapi({ description: 'The vue-router route name; empty: derived from the path' }),
  path: z.string(),
  component: z.string().nullable(),
  icon: z.string(),
  orderNum: z.number().int(),
  visible: z.boolean(),
  keepAlive: z.boolean(),
  permission: z.string().nullable().openapi({ description: 'Permission string(s), comma-separated; null: none' }),
  enabled: z.boolean(),
};

const MENU_EXAMPLE = {
  id: '100',
  parentId: '1' as string | null,
  type: 'C' as 'M' | 'C' | 'F',
  title: 'Users',
  name: 'SystemUser',
  path: '/system/user',
  component: 'system/user/index' as string | null,
  icon: 'ri:admin-line',
  orderNum: 1,
  visible: true,
  keepAlive: false,
  permission: 'system:user:list' as string | null,
  enabled: true,
};

export const Menu = z
  .object({ id: z.string(), ...MENU_FIELDS })
  .openapi('Menu', { description: 'One menu: a directory, a page or a button', example: MENU_EXAMPLE });

export type MenuNodeValue = MenuValue & { children: MenuNodeValue[] };

export const MenuNode: z.ZodType<MenuNodeValue> = z
  .object({ id: z.string(), ...MENU_FIELDS, children: childrenOf('MenuNode', () => MenuNode, 'The menus below, in order') })
  .openapi('MenuNode', {
    description: 'A menu and the menus below it (the whole tree, disabled menus included)',
    example: {
      ...MENU_EXAMPLE,
      children: [
        {
          ...MENU_EXAMPLE,
          id: '1001',
          type: 'F',
          title: 'Add user',
          path: '',
          name: '',
          component: null,
          permission: 'system:user:add',
          parentId: '100',
          children: [],
        },
      ],
    },
  });

export const MenuDeleted = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi('MenuDeleted', { description: 'The menu is gone', example: { id: '1001', deleted: true } });

const ROLE_EXAMPLE = {
  id: '2',
  key: 'viewer',
  name: 'Viewer',
  orderNum: 2,
  enabled: true,
  remark: '',
  menuIds: ['100', '200'],
  permissions: ['system:user:list', 'monitor:online:list'],
};

export const Role = z
  .object({
    id: z.string(),
    key: z.string().openapi({ description: 'What users and settings name the role by; it never changes' }),
    name: z.string(),
    orderNum: z.number().int(),
    enabled: z.boolean().openapi({ description: 'A disabled role stays assigned but grants nothing' }),
    remark: z.string(),
    menuIds: z.array(z.string()).openapi({ description: 'The menus the role holds' }),
    permissions: z
      .array(z.string())
      .openapi({ description: 'Every permission the role could grant (its menus, disabled ones included; admin: *:*:*)' }),
  })
  .openapi('Role', { description: 'A role and the menus it holds', example: ROLE_EXAMPLE });

export const RoleChange = z
  .object({ role: Role, sessionsUpdated: z.number().int().min(0), sessionsEnded: z.number().int().min(0) })
  .openapi('RoleChange', {
    description:
      'The role as written, and what became of the live sessions of its users: their permission snapshots replaced, or ' +
      'ended (a user disabled meanwhile)',
    example: { role: ROLE_EXAMPLE, sessionsUpdated: 3, sessionsEnded: 0 },
  });

export const RolePage = z
  .object({ total: z.number().int().min(0), page: z.number().int().min(1), pageSize: z.number().int().min(1), list: z.array(Role) })
  .openapi('RolePage', {
    description: 'One page of roles, by order number',
    example: { total: 1, page: 1, pageSize: 20, list: [ROLE_EXAMPLE] },
  });

export const RoleDeleted = z
  .object({ id: z.string(), key: z.string(), deleted: z.literal(true) })
  .openapi('RoleDeleted', { description: 'The role is gone', example: { id: '5', key: 'auditor', deleted: true } });

export const MenuChange = z
  .object({ menu: Menu, sessionsUpdated: z.number().int().min(0), sessionsEnded: z.number().int().min(0) })
  .openapi('MenuChange', {
    description:
      'The menu as written, and what became of the live sessions of the users of the roles holding it: their permission ' +
      'snapshots replaced, or ended (a user disabled meanwhile)',
    example: { menu: MENU_EXAMPLE, sessionsUpdated: 2, sessionsEnded: 0 },
  });
