/**
 * The dev menu tree (the same one config/menus.yml ships for the embedded directory): System (Users, Roles, Menus)
 * and Monitor (Online users, Login log, Operation log), whose buttons carry the permission strings the routes check.
 * Never for production.
 */
import type { MenuType } from '../../domain/menu';

export interface DevMenu {
  /** The id config/menus.yml gives it (the SQL seed lets the database number its rows). */
  readonly id: number;
  readonly type: MenuType;
  readonly title: string;
  readonly path?: string;
  readonly name?: string;
  readonly component?: string;
  readonly icon?: string;
  readonly permission?: string;
  readonly children?: readonly DevMenu[];
}

/** Buttons numbered from `first`, one per `[verb, title]`: permission `<area>:<verb>`. */
function buttons(first: number, area: string, verbs: readonly (readonly [string, string])[]): DevMenu[] {
  return verbs.map(([verb, title], i) => ({ id: first + i, type: 'F', title, permission: `${area}:${verb}` }));
}

const CRUD = (noun: string) =>
  [
    ['query', `View ${noun}`],
    ['add', `Add ${noun}`],
    ['edit', `Edit ${noun}`],
    ['remove', `Delete ${noun}`],
  ] as const;

const page = (id: number, title: string, path: string, name: string, icon: string, permission: string, children: DevMenu[] = []) =>
  ({ id, type: 'C', title, path, name, component: `${path.slice(1)}/index`, icon, permission, children }) as const;

export const DEV_MENU_TREE: readonly DevMenu[] = [
  {
    id: 1,
    type: 'M',
    title: 'System',
    path: '/system',
    icon: 'ri:settings-3-line',
    children: [
      page(100, 'Users', '/system/user', 'SystemUser', 'ri:admin-line', 'system:user:list', [
        ...buttons(1000, 'system:user', [
          ...CRUD('user'),
          ['resetPwd', 'Reset password'],
          ['unlock', 'Unlock user'],
          ['resetMfa', 'Reset second factors'],
        ]),
      ]),
      page(101, 'Roles', '/system/role', 'SystemRole', 'ri:admin-fill', 'system:role:list', [
        ...buttons(1010, 'system:role', CRUD('role')),
      ]),
      page(102, 'Menus', '/system/menu', 'SystemMenu', 'ep:menu', 'system:menu:list', [...buttons(1020, 'system:menu', CRUD('menu'))]),
    ],
  },
  {
    id: 2,
    type: 'M',
    title: 'Monitor',
    path: '/monitor',
    icon: 'ep:monitor',
    children: [
      page(200, 'Online users', '/monitor/online', 'MonitorOnline', 'ri:user-voice-line', 'monitor:online:list', [
        ...buttons(2000, 'monitor:online', [['forceLogout', 'Force logout']]),
      ]),
      page(201, 'Login log', '/monitor/login-logs', 'MonitorLoginLog', 'ri:window-line', 'monitor:logininfor:list'),
      page(202, 'Operation log', '/monitor/operation-logs', 'MonitorOperationLog', 'ri:history-fill', 'monitor:operlog:list'),
    ],
  },
];
