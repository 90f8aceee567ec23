/**
 * The dev accounts in the SQL directory (the same ones the embedded directory ships):
 * admin/admin123 (role admin: *:*:*), viewer/viewer123 (role viewer: system:user:list,
 * monitor:online:list), member alice/alice-pass-123 with the verified address alice@example.com.
 * Idempotent: existing rows are left as they are (an existing user keeps their password; a name
 * taken in another case is that account), except that an alice seeded before migration 003 gets her
 * address when she has none (and no one else holds it). Never for production.
 */
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { foldEmail } from '../../application/ports/account-store';
import { foldUsername } from '../../domain/username';

export const DEV_ROLES = [
  { key: 'admin', name: 'Administrator', permissions: [] as string[] },
  { key: 'viewer', name: 'Viewer', permissions: ['system:user:list', 'monitor:online:list'] },
  { key: 'editor', name: 'User editor', permissions: ['system:user:query', 'system:user:add', 'system:user:edit'] },
] as const;

export const DEV_MENUS = [
  { name: 'User list', permission: 'system:user:list' },
  { name: 'User query', permission: 'system:user:query' },
  { name: 'User add', permission: 'system:user:add' },
  { name: 'User edit', permission: 'system:user:edit' },
  { name: 'Online users', permission: 'monitor:online:list' },
  { name: 'Login log', permission: 'monitor:logininfor:list' },
  { name: 'Operation log', permission: 'monitor:operlog:list' },
] as const;

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
  for (const m of DEV_MENUS) {
    await pool.execute(
      "INSERT INTO sys_menu (name, permission, status) SELECT ?, ?, '0' FROM DUAL WHERE NOT " +
        'EXISTS (SELECT 1 FROM sys_menu WHERE permission = ?)',
      [m.name, m.permission, m.permission],
    );
  }
  for (const r of DEV_ROLES) {
    await pool.execute("INSERT IGNORE INTO sys_role (role_key, name, status) VALUES (?, ?, '0')", [r.key, r.name]);
    for (const p of r.permissions) {
      await pool.execute(
        'INSERT IGNORE INTO sys_role_menu (role_id, menu_id) SELECT r.id, m.id FROM sys_role r JOIN ' +
          'sys_menu m ON m.permission = ? WHERE r.role_key = ?',
        [p, r.key],
      );
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
