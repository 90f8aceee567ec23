/**
 * Role administration (`/system/role`): roles and the menus they hold. A change of a role's menus or status reaches
 * the permission snapshot of every live session of its users at once; such a change is sensitive (a recent
 * re-authentication), and nobody changes a role that grants more than they hold, nor makes one grant more.
 */
import { z } from 'zod';
import { CreateRole } from '../../../application/roles/create-role';
import { DeleteRole } from '../../../application/roles/delete-role';
import { GetRole } from '../../../application/roles/get-role';
import { ListRoles } from '../../../application/roles/list-roles';
import { SetRoleMenus } from '../../../application/roles/set-role-menus';
import { UpdateRole } from '../../../application/roles/update-role';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { Role, RoleChange, RoleDeleted, RolePage } from '../schemas/menu-schemas';

const MENU_IDS = z
  .array(z.string().regex(/^[1-9][0-9]{0,18}$/, 'must be a menu id'))
  .max(1000)
  .openapi({ description: 'The ids of the menus the role holds (duplicates ignored)' });

const ROLE_FIELDS = {
  name: z.string().trim().min(1).max(64),
  orderNum: z.number().int().min(-1000000).max(1000000).default(0),
  enabled: z.boolean().default(true).openapi({ description: 'A disabled role stays assigned but grants nothing' }),
  remark: z.string().trim().max(255).default(''),
};

const CreateRoleBody = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'a letter, then letters, digits, _ . or -, at most 64')
      .openapi({ description: 'What users and settings name the role by; it never changes' }),
    ...ROLE_FIELDS,
    menuIds: MENU_IDS.default([]),
  })
  .strict();

const UpdateRoleBody = z
  .object({
    key: z.string().max(64).optional().openapi({ description: "When sent, the role's own key (it never changes)" }),
    ...ROLE_FIELDS,
  })
  .strict();

const RoleMenusBody = z.object({ menuIds: MENU_IDS }).strict();

const RoleQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(20),
  key: z.string().min(1).max(64).optional().openapi({ description: 'Part of the key (any case)' }),
  name: z.string().min(1).max(64).optional().openapi({ description: 'Part of the name (any case)' }),
  enabled: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .openapi({ description: 'Only enabled (true) or disabled (false) roles' }),
});

type Guards = (permission: string) => ReturnType<RouteKit['guards']['requirePermission']>[];

export function roleAdminRoutes(kit: RouteKit): RouteDef[] {
  const login = kit.guards.requireLogin('admin');
  const may: Guards = (permission) => [login, kit.guards.requirePermission('admin', permission)];
  const [list, get, create] = [kit.use(ListRoles), kit.use(GetRole), kit.use(CreateRole)];
  return [
    route({
      method: 'get',
      path: '/system/role',
      summary: 'Roles, paged (?page&pageSize), filtered by part of the key or name and by status (?enabled), by order number',
      tags: ['system-role'],
      guards: may('system:role:list'),
      query: RoleQuery,
      searchTerms: ['key', 'name'],
      response: RolePage,
      raises: ListRoles.reasons,
      handler: async (_ctx, { query }) => list.execute(query),
    }),
    route({
      method: 'get',
      path: '/system/role/:id',
      summary: 'One role, its menus and every permission it could grant',
      tags: ['system-role'],
      guards: may('system:role:query'),
      response: Role,
      raises: GetRole.reasons,
      handler: async (_ctx, { params }) => get.execute({ id: params.id }),
    }),
    route({
      method: 'post',
      path: '/system/role',
      summary: 'Add a role with its menus; a taken key -> 409; the caller must hold what the menus grant',
      tags: ['system-role'],
      guards: may('system:role:add'),
      body: CreateRoleBody,
      successStatus: 201,
      response: Role,
      raises: CreateRole.reasons,
      audit: {
        type: 'role-created',
        action: 'role.create',
        target: (_p, created) => (created as { id?: string } | undefined)?.id,
        summary: (b) => `key=${b.key} menus=${b.menuIds.join(',')}`,
      },
      handler: async (ctx, { body: { key, menuIds, ...fields } }) => create.execute({ actor: currentUser(ctx), key, fields, menuIds }),
    }),
    ...roleWrites(kit, may),
  ];
}

/** Changing, deleting and re-menuing roles. */
function roleWrites(kit: RouteKit, may: Guards): RouteDef[] {
  const mayNow: Guards = (permission) => [...may(permission), kit.guards.requireRecentAuth('admin')];
  const [update, setMenus, remove] = [kit.use(UpdateRole), kit.use(SetRoleMenus), kit.use(DeleteRole)];
  return [
    route({
      method: 'put',
      path: '/system/role/:id',
      summary: "Change a role's name, order, status and remark (not its key); its users' sessions follow a status change at once",
      tags: ['system-role'],
      guards: mayNow('system:role:edit'),
      body: UpdateRoleBody,
      response: RoleChange,
      raises: UpdateRole.reasons,
      audit: { type: 'role-changed', action: 'role.edit', target: (p) => p.id, summary: (b) => `name=${b.name} enabled=${b.enabled}` },
      handler: async (ctx, { body: { key, ...fields }, params }) =>
        update.execute({ actor: currentUser(ctx), id: params.id, fields, ...(key === undefined ? {} : { key }) }),
    }),
    route({
      method: 'put',
      path: '/system/role/:id/menus',
      summary: "Replace a role's menus; every live session of its users gets the new permissions (and routes) at once",
      tags: ['system-role'],
      guards: mayNow('system:role:edit'),
      body: RoleMenusBody,
      response: RoleChange,
      raises: SetRoleMenus.reasons,
      audit: { type: 'role-menus-changed', action: 'role.menus', target: (p) => p.id, summary: (b) => `menus=${b.menuIds.join(',')}` },
      handler: async (ctx, { body, params }) => setMenus.execute({ actor: currentUser(ctx), id: params.id, menuIds: body.menuIds }),
    }),
    route({
      method: 'delete',
      path: '/system/role/:id',
      summary: 'Delete a role; refused (409) while users hold it',
      tags: ['system-role'],
      guards: may('system:role:remove'),
      response: RoleDeleted,
      raises: DeleteRole.reasons,
      audit: { type: 'role-deleted', action: 'role.delete', target: (p) => p.id },
      handler: async (ctx, { params }) => {
        const role = await remove.execute({ actor: currentUser(ctx), id: params.id });
        return { id: role.id, key: role.key, deleted: true as const };
      },
    }),
  ];
}
