/** Writes a contract fixture into the SQL admin directory tables (one enabled sys_menu per role permission). */
import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { foldUsername } from '../../src/domain/username';
import type { DirectoryFixture } from '../contract/user-directory.contract';

export async function seedSqlFixture(pool: Pool, f: DirectoryFixture): Promise<Map<string, string>> {
  const roleIds = new Map<string, string>();
  for (const r of f.roles) {
    const [res] = await pool.execute<ResultSetHeader>('INSERT INTO sys_role (role_key, name, status) VALUES (?, ?, ?)', [
      r.key,
      r.key,
      r.enabled ? '0' : '1',
    ]);
    const roleId = String(res.insertId);
    roleIds.set(r.key, roleId);
    for (const p of r.permissions) {
      const [m] = await pool.execute<ResultSetHeader>("INSERT INTO sys_menu (name, permission, status) VALUES (?, ?, '0')", [p, p]);
      await pool.execute('INSERT INTO sys_role_menu (role_id, menu_id) VALUES (?, ?)', [roleId, String(m.insertId)]);
    }
  }
  const userIds = new Map<string, string>();
  for (const u of f.users) {
    const [res] = await pool.execute<ResultSetHeader>(
      'INSERT INTO sys_user (username, username_folded, nickname, avatar, password, status) VALUES (?, ?, ?, ?, ?, ?)',
      [u.username, foldUsername(u.username), u.nickname, u.avatar ?? '', u.passwordHash, u.enabled ? '0' : '1'],
    );
    const userId = String(res.insertId);
    userIds.set(u.username, userId);
    for (const k of u.roles)
      await pool.execute('INSERT INTO sys_user_role (user_id, role_id) VALUES (?, ?)', [userId, roleIds.get(k) as string]);
  }
  return userIds;
}

/** Writes a contract fixture's users into the member table (members hold no roles: the fixture's are ignored). */
export async function seedSqlMembers(pool: Pool, f: DirectoryFixture): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const u of f.users) {
    const [res] = await pool.execute<ResultSetHeader>(
      'INSERT INTO member (username, username_folded, nickname, avatar, password, status) VALUES (?, ?, ?, ?, ?, ?)',
      [u.username, foldUsername(u.username), u.nickname, u.avatar ?? '', u.passwordHash, u.enabled ? '0' : '1'],
    );
    ids.set(u.username, String(res.insertId));
  }
  return ids;
}
