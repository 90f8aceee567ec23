/** Writes the access contract's fixture (test/contract/access-fixture.ts) into the SQL directory tables. */
import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { foldUsername } from '../../src/domain/username';
import { ACCESS_HASH, type AccessFixture } from '../contract/access-fixture';

export interface SeededAccess {
  readonly menus: Map<string, string>;
  readonly roles: Map<string, string>;
  readonly users: Map<string, string>;
}

export async function seedSqlAccess(pool: Pool, f: AccessFixture): Promise<SeededAccess> {
  const menus = new Map<string, string>();
  for (const m of f.menus) {
    const [res] = await pool.query<ResultSetHeader>(
      'INSERT INTO sys_menu (parent_id, menu_type, name, route_name, path, component, icon, order_num, visible, keep_alive, ' +
        'permission, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        m.parent === null ? null : menus.get(m.parent),
        m.type,
        m.title,
        m.name,
        m.path,
        m.component,
        m.icon,
        m.orderNum,
        m.visible ? 1 : 0,
        m.keepAlive ? 1 : 0,
        m.permission,
        m.enabled ? '0' : '1',
      ],
    );
    menus.set(m.key, String(res.insertId));
  }
  const roles = new Map<string, string>();
  for (const r of f.roles) {
    const [res] = await pool.query<ResultSetHeader>('INSERT INTO sys_role (role_key, name, order_num, status) VALUES (?, ?, ?, ?)', [
      r.key,
      r.name,
      r.orderNum,
      r.enabled ? '0' : '1',
    ]);
    roles.set(r.key, String(res.insertId));
    for (const m of r.menus) await pool.query('INSERT INTO sys_role_menu (role_id, menu_id) VALUES (?, ?)', [res.insertId, menus.get(m)]);
  }
  const users = new Map<string, string>();
  for (const u of f.users) {
    const [res] = await pool.query<ResultSetHeader>(
      "INSERT INTO sys_user (username, username_folded, nickname, password, status) VALUES (?, ?, ?, ?, '0')",
      [u.username, foldUsername(u.username), u.username, ACCESS_HASH],
    );
    users.set(u.username, String(res.insertId));
    for (const k of u.roles) await pool.query('INSERT INTO sys_user_role (user_id, role_id) VALUES (?, ?)', [res.insertId, roles.get(k)]);
  }
  return { menus, roles, users };
}
