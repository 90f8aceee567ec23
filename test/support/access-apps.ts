/**
 * An admin app over the dev menu tree (config/menus.yml on the file directory, `npm run db:seed`'s on MariaDB) with
 * three roles and four users, for the HTTP tests of the SPA's routes and of menu and role administration:
 *
 *   admin  (role admin: *:*:*)
 *   viewer (role viewer: the pages Users and Online users)
 *   ed     (roles viewer and editor: editor holds the buttons View, Add and Edit user)
 *   ann    (role viewer)
 *   mo     (role menuadmin: the Menus page and its buttons, and the Users page)
 *   ro     (role roleadmin: the Roles page and its buttons, and the pages Users and Online users)
 *
 * Sessions are made with the SessionManager, as a login makes them (fresh: they pass the step-up guard).
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { seedDevAccounts } from '../../src/adapters/sql/dev-seed';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { buildAdminApp } from '../../src/main/admin';
import type { BuiltApp } from '../../src/main/operations';
import { HASH } from '../contract/user-directory.contract';
import { testConfig, testInfra, type StoreKind, type TestInfra } from './apps';
import { ScratchDatabase } from './mariadb';

export type DirectoryKind = 'file' | 'sql';

export interface AccessApp {
  readonly app: BuiltApp;
  readonly infra: TestInfra;
  /** A live session of the user (as after a login), its access token. */
  sessionOf(username: string): Promise<string>;
  /** The same, authenticated an hour ago: a sensitive route answers it 403 step-up-required. */
  staleSessionOf(username: string): Promise<string>;
  userId(username: string): Promise<string>;
  /** The id of the menu carrying the permission, or of the directory of the path. */
  menuId(permissionOrPath: string): Promise<string>;
  roleId(key: string): Promise<string>;
  dispose(): Promise<void>;
}

const CONFIG_DIR = path.join(__dirname, '../../config');

function fileDirectory(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agspa-'));
  copyFileSync(path.join(CONFIG_DIR, 'menus.yml'), path.join(dir, 'menus.yml'));
  const user = (id: number, username: string, roles: string) =>
    `  - { id: ${id}, username: ${username}, password: '${HASH}', roles: [${roles}] }`;
  writeFileSync(
    path.join(dir, 'users.yml'),
    [
      'roles:',
      '  admin: { id: 1, name: Administrator }',
      '  viewer: { id: 2, name: Viewer, order: 2, menus: [100, 200] }',
      '  editor: { id: 3, name: User editor, order: 3, menus: [1000, 1001, 1002] }',
      '  menuadmin: { id: 4, name: Menu admin, order: 4, menus: [102, 1020, 1021, 1022, 1023, 100] }',
      '  roleadmin: { id: 5, name: Role admin, order: 5, menus: [101, 1010, 1011, 1012, 1013, 100, 200] }',
      'users:',
      user(1, 'admin', 'admin'),
      user(2, 'viewer', 'viewer'),
      user(3, 'ed', 'viewer, editor'),
      user(4, 'ann', 'viewer'),
      user(5, 'mo', 'menuadmin'),
      user(6, 'ro', 'roleadmin'),
      '',
    ].join('\n'),
  );
  return path.join(dir, 'users.yml');
}

/** The roles the SQL seed lacks, by the permissions of their menus (each the one menu carrying it). */
const SQL_ROLES = {
  menuadmin: ['system:menu:list', 'system:menu:query', 'system:menu:add', 'system:menu:edit', 'system:menu:remove', 'system:user:list'],
  roleadmin: [
    'system:role:list',
    'system:role:query',
    'system:role:add',
    'system:role:edit',
    'system:role:remove',
    'system:user:list',
    'monitor:online:list',
  ],
};

async function sqlDirectory(db: ScratchDatabase): Promise<void> {
  await db.clear();
  await seedDevAccounts(db.pool, async () => HASH);
  for (const [key, permissions] of Object.entries(SQL_ROLES)) {
    await db.pool.query("INSERT INTO sys_role (role_key, name, order_num, status) VALUES (?, ?, ?, '0')", [key, key, 4]);
    await db.pool.query(
      'INSERT INTO sys_role_menu (role_id, menu_id) SELECT r.id, m.id FROM sys_role r, sys_menu m ' +
        'WHERE r.role_key = ? AND m.permission IN (?)',
      [key, permissions],
    );
  }
  for (const [username, roles] of [
    ['ed', ['viewer', 'editor']],
    ['ann', ['viewer']],
    ['mo', ['menuadmin']],
    ['ro', ['roleadmin']],
  ] as const) {
    await db.pool.query("INSERT INTO sys_user (username, username_folded, nickname, password, status) VALUES (?, ?, ?, ?, '0')", [
      username,
      username,
      username,
      HASH,
    ]);
    for (const role of roles) {
      await db.pool.query(
        'INSERT INTO sys_user_role (user_id, role_id) SELECT u.id, r.id FROM sys_user u, sys_role r ' +
          'WHERE u.username = ? AND r.role_key = ?',
        [username, role],
      );
    }
  }
}

/** `db`: the scratch database of an `sql` app (seeded afresh here). */
export async function accessApp(kind: DirectoryKind, store: StoreKind, db?: ScratchDatabase): Promise<AccessApp> {
  let overrides: Record<string, unknown>;
  if (kind === 'sql') {
    if (db === undefined) throw new Error('an sql access app needs its scratch database');
    await sqlDirectory(db);
    const ds = db.settings;
    overrides = {
      'svc.directory': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
    };
  } else {
    overrides = { 'svc.users-file': fileDirectory() };
  }
  const config = testConfig({ ...overrides, 'svc.crypto.worker-threads': 1 }, store);
  const infra = testInfra(config, { label: `spa${kind}` });
  const app = buildAdminApp(config, infra);
  const managers = app.container.get(SessionManagers);
  const directory = app.container.get(TOKENS.AdminDirectory);
  const menus = app.container.get(TOKENS.MenuCatalogue);
  const roles = app.container.get(TOKENS.RoleAdministration);
  const found = <T>(what: string, v: T | undefined | null): T => {
    if (v === undefined || v === null) throw new Error(`access app: no ${what}`);
    return v;
  };
  const userId = async (username: string) => found(`user ${username}`, await directory.findByUsername(username)).id;
  return {
    app,
    infra,
    userId,
    async sessionOf(username) {
      const user = found(`user ${username}`, await directory.findByUsername(username));
      return (await managers.get('admin').login(principalOf(user))).token;
    },
    async staleSessionOf(username) {
      const user = found(`user ${username}`, await directory.findByUsername(username));
      return (await managers.get('admin').login(principalOf(user), {}, {}, undefined, { authTime: Date.now() - 3_600_000 })).token;
    },
    async menuId(key) {
      const all = await menus.menus();
      return found(`menu ${key}`, all.find((m) => m.permission === key) ?? all.find((m) => m.type === 'M' && m.path === key)).id;
    },
    async roleId(key) {
      return found(
        `role ${key}`,
        (await roles.listRoles({ key }, 0, 100)).roles.find((r) => r.key === key),
      ).id;
    },
    dispose: () => infra.dispose(),
  };
}

/** The number of rows of a table (SQL apps). */
export async function rowCount(db: ScratchDatabase, table: 'sys_menu' | 'sys_role'): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(rows[0]?.n ?? 0);
}
