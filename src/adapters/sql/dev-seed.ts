/**
 * The dev menu tree (./dev-menus.ts, the one config/menus.yml ships) and the dev accounts in the SQL directory (the
 * same ones the embedded directory ships):
 * admin/admin123 (role admin: *:*:*), viewer/viewer123 (role viewer: system:user:list,
 * monitor:online:list), member alice/alice-pass-123 with the verified address alice@example.com.
 * Idempotent: existing rows are left as they are (an existing user keeps their password; a name
 * taken in another case is that account), except that an alice seeded before migration 003 gets her
 * address when she has none (and no one else holds it). A menu seeded before migration 007 (a top-level button
 * holding one permission) becomes its place in the tree, so the roles holding it keep it. Never for production.
 */
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { foldEmail } from '../../application/ports/account-store';
import { foldUsername } from '../../domain/username';
import { DEV_MENU_TREE, type DevMenu } from './dev-menus';

export const DEV_ROLES = [
  { key: 'admin', name: 'Administrator', permissions: [] as string[] },
  { key: 'viewer', name: 'Viewer', permissions: ['system:user:list', 'monitor:online:list'] },
  { key: 'editor', name: 'User editor', permissions: ['system:user:query', 'system:user:add', 'system:user:edit'] },
] as const;

/**
 * The row of `m` under `parentId`: a row seeded before (the same permission, or a directory of the same path); one
 * seeded before migration 007 (a top-level button) is moved into place; a new one is inserted. Returns its id.
 */
async function seedMenu(pool: Pool, m: DevMenu, parentId: string | null, order: number): Promise<string> {
  const [found] = await pool.execute<RowDataPacket[]>(
    m.permission === undefined
      ? "SELECT id, menu_type, parent_id, path FROM sys_menu WHERE menu_type = 'M' AND path = ? ORDER BY id LIMIT 1"
      : 'SELECT id, menu_type, parent_id, path FROM sys_menu WHERE permission = ? ORDER BY id LIMIT 1',
    [m.permission ?? m.path ?? ''],
  );
  const row = found[0];
  const values = [parentId, m.type, m.title, m.name ?? '', m.path ?? '', m.component ?? null, m.icon ?? '', order, m.permission ?? null];
  if (row === undefined) {
    const [res] = await pool.execute<ResultSetHeader>(
      'INSERT INTO sys_menu (parent_id, menu_type, name, route_name, path, component, icon, order_num, permission, status) ' +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '0')",
      values,
    );
    return String(res.insertId);
  }
  if (row.menu_type === 'F' && row.parent_id === null && row.path === '') {
    await pool.execute(
      'UPDATE sys_menu SET parent_id = ?, menu_type = ?, name = ?, route_name = ?, path = ?, component = ?, icon = ?, order_num = ?, ' +
        'permission = ? WHERE id = ?',
      [...values, String(row.id)],
    );
  }
  return String(row.id);
}

/** Seeds the tree; answers the menu id of each permission. */
async function seedMenus(pool: Pool): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const walk = async (list: readonly DevMenu[], parentId: string | null): Promise<void> => {
    for (const [i, m] of list.entries()) {
      const id = await seedMenu(pool, m, parentId, i + 1);
      if (m.permission !== undefined) ids.set(m.permission, id);
      await walk(m.children ?? [], id);
    }
  };
  await walk(DEV_MENU_TREE, null);
  return ids;
}

export const DEV_USERS = [
  { username: 'admin', password: 'admin123', nickname: 'Administrator', roles: ['admin'] },
  { username: 'viewer', password: 'viewer123', nickname: 'Viewer', roles: ['viewer'] },
] as const;

export const DEV_MEMBERS = [{ username: 'alice', password: 'alice-pass-123', nickname: 'Alice', email: 'alice@example.com' }] as const;

export interface SeedResult {
  readonly usersCreated: readonly string[];
  readonly membersCreated: readonly string[];
}

/** `hash` turns a password into a BCrypt hash (cost 10 or more). */
export async function seedDevAccounts(pool: Pool, hash: (password: string) => Promise<string>): Promise<SeedResult> {
  const menuIds = await seedMenus(pool);
  for (const r of DEV_ROLES) {
    await pool.execute("INSERT IGNORE INTO sys_role (role_key, name, status) VALUES (?, ?, '0')", [r.key, r.name]);
    for (const p of r.permissions) {
      await pool.execute('INSERT IGNORE INTO sys_role_menu (role_id, menu_id) SELECT r.id, ? FROM sys_role r WHERE r.role_key = ?', [
        menuIds.get(p) ?? null,
        r.key,
      ]);
    }
  }
  const usersCreated: string[] = [];
  for (const u of DEV_USERS) {
    const folded = foldUsername(u.username);
    const [found] = await pool.execute<RowDataPacket[]>('SELECT id FROM sys_user WHERE username_folded = ?', [folded]);
    if (found.length === 0) {
      await pool.execute("INSERT IGNORE INTO sys_user (username, username_folded, nickname, password, status) VALUES (?, ?, ?, ?, '0')", [
        u.username,
        folded,
        u.nickname,
        await hash(u.password),
      ]);
      usersCreated.push(u.username);
    }
    for (const k of u.roles) {
      await pool.execute(
        'INSERT IGNORE INTO sys_user_role (user_id, role_id) SELECT u.id, r.id FROM sys_user u JOIN ' +
          'sys_role r ON r.role_key = ? WHERE u.username_folded = ?',
        [k, folded],
      );
    }
  }
  const membersCreated: string[] = [];
  for (const m of DEV_MEMBERS) {
    const folded = foldUsername(m.username);
    const [found] = await pool.execute<RowDataPacket[]>('SELECT id FROM member WHERE username_folded = ?', [folded]);
    if (found.length > 0) {
      // IGNORE: an address another member holds already stays theirs.
      await pool.execute(
        'UPDATE IGNORE member SET email = ?, email_folded = ?, email_verified = 1 WHERE username_folded = ? AND email IS NULL',
        [m.email, foldEmail(m.email), folded],
      );
      continue;
    }
    await pool.execute(
      'INSERT IGNORE INTO member (username, username_folded, nickname, password, status, email, email_folded, email_verified) ' +
        "VALUES (?, ?, ?, ?, '0', ?, ?, 1)",
      [m.username, folded, m.nickname, await hash(m.password), m.email, foldEmail(m.email)],
    );
    membersCreated.push(m.username);
  }
  return { usersCreated, membersCreated };
}
