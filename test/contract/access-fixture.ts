/**
 * The fixture of the MenuCatalogue and RoleAdministration contracts (./menu-catalogue.contract.ts,
 * ./role-administration.contract.ts): a small menu tree, roles holding parts of it, and users holding the roles.
 * Menus and roles are named by a key here; each adapter's fixture maps the keys to the ids it assigned.
 */
import type { MenuCatalogue } from '../../src/application/ports/menu-catalogue';
import type { RoleAdministration } from '../../src/application/ports/role-administration';
import type { UserDirectory } from '../../src/application/ports/user-directory';
import type { MenuFields } from '../../src/domain/menu';
import { HASH } from './user-directory.contract';

export interface FixtureMenu extends Omit<MenuFields, 'parentId'> {
  readonly key: string;
  /** The parent's key (listed before it), or null. */
  readonly parent: string | null;
}

export interface FixtureRole {
  readonly key: string;
  readonly name: string;
  readonly orderNum: number;
  readonly enabled: boolean;
  /** Menu keys. */
  readonly menus: readonly string[];
}

export interface AccessFixture {
  readonly menus: readonly FixtureMenu[];
  readonly roles: readonly FixtureRole[];
  readonly users: readonly { readonly username: string; readonly roles: readonly string[] }[];
}

const page = { icon: '', visible: true, keepAlive: false, enabled: true } as const;
const dir = (key: string, title: string, path: string, orderNum: number): FixtureMenu => ({
  key,
  parent: null,
  type: 'M',
  title,
  name: '',
  path,
  component: null,
  orderNum,
  permission: null,
  ...page,
  icon: 'ri:folder-line',
});
const button = (key: string, parent: string, permission: string, orderNum: number): FixtureMenu => ({
  key,
  parent,
  type: 'F',
  title: key,
  name: '',
  path: '',
  component: null,
  orderNum,
  permission,
  ...page,
});

export const ACCESS_FIXTURE: AccessFixture = {
  menus: [
    dir('system', 'System', '/system', 1),
    {
      key: 'users',
      parent: 'system',
      type: 'C',
      title: 'Users',
      name: 'SystemUser',
      path: '/system/user',
      component: 'system/user/index',
      orderNum: 1,
      permission: 'system:user:list',
      ...page,
      keepAlive: true,
    },
    button('user-add', 'users', 'system:user:add', 1),
    button('user-edit', 'users', 'system:user:edit', 2),
    {
      key: 'roles',
      parent: 'system',
      type: 'C',
      title: 'Roles',
      name: '',
      path: '/system/role',
      component: 'system/role/index',
      orderNum: 2,
      permission: 'system:role:list',
      ...page,
    },
    dir('monitor', 'Monitor', '/monitor', 2),
    {
      key: 'online',
      parent: 'monitor',
      type: 'C',
      title: 'Online',
      name: 'MonitorOnline',
      path: '/monitor/online',
      component: 'monitor/online/index',
      orderNum: 1,
      permission: 'monitor:online:list',
      ...page,
    },
    {
      key: 'old',
      parent: 'monitor',
      type: 'C',
      title: 'Old',
      name: '',
      path: '/monitor/old',
      component: 'monitor/old/index',
      orderNum: 2,
      permission: 'monitor:old:list',
      ...page,
      enabled: false,
    },
  ],
  roles: [
    { key: 'admin', name: 'Administrator', orderNum: 1, enabled: true, menus: [] },
    { key: 'viewer', name: 'Viewer', orderNum: 2, enabled: true, menus: ['users', 'online'] },
    { key: 'editor', name: 'User editor', orderNum: 3, enabled: true, menus: ['users', 'user-add', 'user-edit', 'old'] },
    { key: 'dormant', name: 'Dormant', orderNum: 4, enabled: false, menus: ['roles'] },
    { key: 'spare', name: 'Spare role', orderNum: 5, enabled: true, menus: [] },
  ],
  users: [
    { username: 'root', roles: ['admin'] },
    { username: 'ann', roles: ['viewer', 'editor'] },
    { username: 'dan', roles: ['viewer', 'dormant'] },
  ],
};

/** The fixture's users' password hash (never checked here). */
export const ACCESS_HASH = HASH;

export interface AccessUnderTest {
  readonly menus: MenuCatalogue;
  readonly roles: RoleAdministration;
  /** The admin directory over the same roles and menus (what a login reads). */
  readonly directory: UserDirectory;
  /** The id each fixture menu, role and user got. */
  readonly menuId: (key: string) => string;
  readonly roleId: (key: string) => string;
  readonly userId: (username: string) => string;
  close?(): Promise<void>;
}

export type MakeAccess = (fixture: AccessFixture) => Promise<AccessUnderTest>;

/** A lookup that fails loudly on a key the fixture does not have. */
export function lookup(map: ReadonlyMap<string, string>, what: string): (key: string) => string {
  return (key) => {
    const v = map.get(key);
    if (v === undefined) throw new Error(`fixture: no ${what} "${key}"`);
    return v;
  };
}
