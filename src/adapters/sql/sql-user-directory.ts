/**
 * Admin users in MySQL / MariaDB, in the RuoYi shape (sys_user, sys_role, sys_menu and the two
 * link tables). A login is ONE statement, one round trip: the user row plus two correlated
 * subqueries that aggregate, with JSON_ARRAYAGG, the keys of the user's enabled roles and the
 * permission values of the enabled menus of those roles. Distinctness, the comma split of
 * RuoYi's multi-permission menus and the `admin` -> `*:*:*` rule are applied in code (domain),
 * which keeps the SQL portable between MariaDB (10.5+) and MySQL (8.0), whose JSON_ARRAYAGG
 * accepts neither DISTINCT nor ORDER BY.
 *
 * Usernames are unique by their folded form (NFKC, then lower case; src/domain/username.ts): the
 * adapter writes it into `username_folded` (unique index, migration 002) and looks names up by it.
 *
 * Account state and e-mail (migration 003; AccountStore) are ./sql-accounts.ts (extended), shared with the
 * member directory: `create` writes the e-mail address too, and a duplicate key on its unique
 * index is `email-taken` (on the username's, `username-taken`).
 *
 * Every value reaches the server as a parameter (prepared statements via `execute`, or
 * placeholder expansion via `query` for IN lists); no SQL is built from input.
 */
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { effectivePermissions } from '../../domain/role-permissions';
import { foldUsername } from '../../domain/username';
import { inTransaction } from './sql-transaction';
import type {
  AdministrationResult,
  ProfileChange,
  ProfileResult,
  RoleGrant,
  UserAdministration,
  UserQuery,
} from '../../application/ports/user-administration';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import {
  ACCOUNT_STATE_COLUMNS,
  accountStateOf,
  duplicateEmail,
  ER_DUP_ENTRY,
  foldedEmailColumn,
  SqlAccounts,
  STATUS_ENABLED,
  type Queryable,
} from './sql-accounts';
import { SqlUserAdmin } from './sql-user-admin';

export { STATUS_DISABLED, STATUS_ENABLED } from './sql-accounts';

const ID = /^[1-9][0-9]{0,18}$/;

export interface SqlDirectoryOptions {
  /** A statement that takes longer fails (the caller answers 503) instead of hanging. */
  readonly queryTimeoutMs?: number;
}

const USER_SELECT = `
SELECT u.id, u.username, u.nickname, u.avatar, u.password, u.status, ${ACCOUNT_STATE_COLUMNS}, u.phone,
       (SELECT JSON_ARRAYAGG(r.role_key)
          FROM sys_user_role ur
          JOIN sys_role r ON r.id = ur.role_id
         WHERE ur.user_id = u.id AND r.status = '0') AS role_keys,
       (SELECT JSON_ARRAYAGG(m.permission)
          FROM sys_user_role ur
          JOIN sys_role r ON r.id = ur.role_id AND r.status = '0'
          JOIN sys_role_menu rm ON rm.role_id = r.id
          JOIN sys_menu m ON m.id = rm.menu_id AND m.status = '0'
         WHERE ur.user_id = u.id AND m.permission IS NOT NULL AND m.permission <> '') AS menu_permissions
  FROM sys_user u`;

/** JSON_ARRAYAGG comes back as text from MariaDB and parsed from MySQL; NULL when no rows. */
function jsonArray(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  const arr: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(arr) ? arr.filter((x): x is string => typeof x === 'string') : [];
}

/** A row of the account columns (id, username, nickname, avatar, password, status, ACCOUNT_STATE_COLUMNS) of sys_user or member. */
export function directoryUserOf(row: RowDataPacket, roles: readonly string[], permissions: readonly string[]): DirectoryUser {
  return {
    id: String(row.id),
    username: String(row.username),
    nickname: String(row.nickname ?? ''),
    avatar: String(row.avatar ?? ''),
    passwordHash: String(row.password),
    enabled: row.status === STATUS_ENABLED,
    roles,
    permissions,
    ...accountStateOf(row),
  };
}

/** A sys_user row of USER_SELECT (with its phone, migration 008). */
export function toDirectoryUser(row: RowDataPacket): DirectoryUser {
  const roles = [...new Set(jsonArray(row.role_keys))].sort();
  const phone = row.phone === null || row.phone === undefined ? null : String(row.phone);
  return { ...directoryUserOf(row, roles, effectivePermissions(roles, jsonArray(row.menu_permissions))), phone };
}

/**
 * The binary collation still pads ('ann ' = 'ann' in SQL): a row found by its folded name is the
 * account only when its name folds to exactly the name asked for.
 */
export function sameFoldedName(stored: string, folded: string): boolean {
  return foldUsername(stored) === folded;
}

/** A page of a directory table (offset >= 0, at most 1000 rows) and the table's row count, queried together. */
export async function listPage(
  pool: Pick<Pool, 'query'>,
  sql: { readonly count: string; readonly page: string; readonly timeout: number },
  offset: number,
  limit: number,
  toUser: (row: RowDataPacket) => DirectoryUser,
): Promise<{ total: number; users: DirectoryUser[] }> {
  const off = Math.max(0, Math.floor(offset));
  const lim = Math.max(0, Math.min(1000, Math.floor(limit)));
  const [[count], [rows]] = await Promise.all([
    pool.query<RowDataPacket[]>({ sql: sql.count, timeout: sql.timeout }),
    pool.query<RowDataPacket[]>({ sql: sql.page, timeout: sql.timeout }, [lim, off]),
  ]);
  return { total: Number(count[0]?.n ?? 0), users: rows.map((row) => toUser(row)) };
}

/** The row an account insert writes: the e-mail address as given (trimmed) and folded, or NULL for none. */
export function emailColumns(email: string | undefined): [string | null, string | null] {
  return email === undefined ? [null, null] : [email.trim(), foldedEmailColumn(email)];
}

/** A unique key an account insert ran into: the e-mail's index (email-taken) or the username's. */
export function takenOnInsert(e: unknown, username: string): CreateUserResult | null {
  if ((e as { errno?: number }).errno !== ER_DUP_ENTRY) return null;
  return duplicateEmail(e)
    ? { ok: false, reason: 'email-taken', detail: 'The e-mail address is already taken.' }
    : { ok: false, reason: 'username-taken', detail: `The username "${username}" is already taken.` };
}

export class SqlUserDirectory extends SqlAccounts implements UserDirectory, UserAdministration {
  private readonly admin: SqlUserAdmin;

  constructor(pool: Pool, opts: SqlDirectoryOptions = {}) {
    super(pool, { table: 'sys_user', accountType: 'admin' }, opts.queryTimeoutMs);
    this.admin = new SqlUserAdmin({
      pool,
      select: USER_SELECT,
      toUser: toDirectoryUser,
      one: (db, where, value) => this.one(db, where, value),
      timeout: this.timeout,
    });
  }

  protected async one(db: Queryable, where: string, value: string): Promise<DirectoryUser | null> {
    const [rows] = await db.execute<RowDataPacket[]>({ sql: `${USER_SELECT} WHERE ${where}`, timeout: this.timeout }, [value]);
    const row = rows[0];
    return row === undefined ? null : toDirectoryUser(row);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    const folded = foldUsername(username);
    const u = await this.one(this.pool, 'u.username_folded = ?', folded);
    return u !== null && sameFoldedName(u.username, folded) ? u : null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    if (!ID.test(id)) return null;
    return this.one(this.pool, 'u.id = ?', id);
  }

  list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    const sql = {
      count: 'SELECT COUNT(*) AS n FROM sys_user',
      page: `${USER_SELECT} ORDER BY u.id LIMIT ? OFFSET ?`,
      timeout: this.timeout,
    };
    return listPage(this.pool, sql, offset, limit, toDirectoryUser);
  }

  /**
   * Role ids for the keys, or the keys that name no role. `lock` (a grant, inside its transaction): the role rows are
   * then locked in share mode by their primary key, the row a deletion locks first (removeRole), so a concurrent
   * deletion waits for the grant (and then finds the role in use) or the grant waits for the deletion (and finds the
   * role gone), instead of the grant's insert failing its foreign key. Through the primary key only (FORCE INDEX):
   * `uk_sys_role_key` covers (role_key, id), and share locks taken through it would deadlock with the deletion, which
   * takes the primary key first and that index last.
   */
  private async resolveRoles(db: Queryable, keys: readonly string[], lock = false): Promise<{ ids: string[] } | { unknown: string[] }> {
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return { ids: [] };
    const [rows] = await db.query<RowDataPacket[]>(
      { sql: 'SELECT id, role_key FROM sys_role WHERE role_key IN (?)', timeout: this.timeout },
      [wanted],
    );
    const byKey = new Map(rows.map((r) => [String(r.role_key), String(r.id)]));
    if (lock && byKey.size > 0) {
      const [held] = await db.query<RowDataPacket[]>(
        { sql: 'SELECT id, status FROM sys_role FORCE INDEX (PRIMARY) WHERE id IN (?) LOCK IN SHARE MODE', timeout: this.timeout },
        [[...byKey.values()]],
      );
      const live = new Set(held.map((r) => String(r.id)));
      for (const [key, id] of byKey) if (!live.has(id)) byKey.delete(key);
    }
    const unknown = wanted.filter((k) => !byKey.has(k));
    return unknown.length > 0 ? { unknown } : { ids: wanted.map((k) => byKey.get(k) as string) };
  }

  private async linkRoles(db: Queryable, userId: string, roleIds: readonly string[]): Promise<void> {
    if (roleIds.length === 0) return;
    await db.query({ sql: 'INSERT INTO sys_user_role (user_id, role_id) VALUES ?', timeout: this.timeout }, [
      roleIds.map((r) => [userId, r]),
    ]);
  }

  create(user: NewUser): Promise<CreateUserResult> {
    return inTransaction<CreateUserResult>(this.pool, async (conn) => {
      const roles = await this.resolveRoles(conn, user.roles, true);
      if ('unknown' in roles) return { ok: false, reason: 'unknown-role', detail: `No such role: ${roles.unknown.join(', ')}` };
      let id: string;
      try {
        const [res] = await conn.execute<ResultSetHeader>(
          {
            sql:
              'INSERT INTO sys_user (username, username_folded, nickname, avatar, password, status, email, email_folded) ' +
              'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            timeout: this.timeout,
          },
          [
            user.username,
            foldUsername(user.username),
            user.nickname,
            user.avatar ?? '',
            user.passwordHash,
            STATUS_ENABLED,
            ...emailColumns(user.email),
          ],
        );
        id = String(res.insertId);
      } catch (e) {
        const taken = takenOnInsert(e, user.username);
        if (taken !== null) return taken;
        throw e;
      }
      await this.linkRoles(conn, id, roles.ids);
      const created = await this.one(conn, 'u.id = ?', id);
      if (created === null) throw new Error('created user vanished inside its own transaction');
      return { ok: true, user: created };
    });
  }

  /** The permission values of every menu linked to the roles, enabled or not (one statement after the role check). */
  async rolePermissions(roleKeys: readonly string[]): Promise<RoleGrant> {
    const roles = await this.resolveRoles(this.pool, roleKeys);
    if ('unknown' in roles) return { ok: false, reason: 'unknown-role', detail: `No such role: ${roles.unknown.join(', ')}` };
    if (roles.ids.length === 0) return { ok: true, permissions: [] };
    const [rows] = await this.pool.query<RowDataPacket[]>(
      {
        sql:
          'SELECT DISTINCT m.permission FROM sys_role_menu rm JOIN sys_menu m ON m.id = rm.menu_id ' +
          "WHERE rm.role_id IN (?) AND m.permission IS NOT NULL AND m.permission <> ''",
        timeout: this.timeout,
      },
      [roles.ids],
    );
    // The same rule as a login's (admin holds *:*:*; comma lists split), over every role asked about, enabled or not.
    return {
      ok: true,
      permissions: effectivePermissions(
        roleKeys,
        rows.map((r) => String(r.permission)),
      ),
    };
  }

  async assignedRoles(userId: string): Promise<readonly string[] | null> {
    if (!ID.test(userId)) return null;
    const [rows] = await this.pool.execute<RowDataPacket[]>(
      {
        sql:
          'SELECT u.id, r.role_key FROM sys_user u LEFT JOIN sys_user_role ur ON ur.user_id = u.id ' +
          'LEFT JOIN sys_role r ON r.id = ur.role_id WHERE u.id = ?',
        timeout: this.timeout,
      },
      [userId],
    );
    if (rows.length === 0) return null;
    return [...new Set(rows.map((r) => r.role_key).filter((k): k is string => typeof k === 'string'))].sort();
  }

  setRoles(userId: string, roleKeys: readonly string[]): Promise<AdministrationResult> {
    if (!ID.test(userId)) return Promise.resolve(notFound(userId));
    return inTransaction<AdministrationResult>(this.pool, async (conn) => {
      // Lock the user row: concurrent role changes of one user serialise instead of interleaving.
      const [found] = await conn.execute<RowDataPacket[]>(
        { sql: 'SELECT id FROM sys_user WHERE id = ? FOR UPDATE', timeout: this.timeout },
        [userId],
      );
      if (found.length === 0) return notFound(userId);
      const roles = await this.resolveRoles(conn, roleKeys, true);
      if ('unknown' in roles) return { ok: false, reason: 'unknown-role', detail: `No such role: ${roles.unknown.join(', ')}` };
      await conn.execute({ sql: 'DELETE FROM sys_user_role WHERE user_id = ?', timeout: this.timeout }, [userId]);
      await this.linkRoles(conn, userId, roles.ids);
      const user = await this.one(conn, 'u.id = ?', userId);
      return user === null ? notFound(userId) : { ok: true, user };
    });
  }

  // The listing, profile edits and deletion (./sql-user-admin.ts).
  findUsers(query: UserQuery): Promise<{ total: number; users: DirectoryUser[] }> {
    return this.admin.findUsers(query);
  }
  updateProfile(userId: string, change: ProfileChange): Promise<ProfileResult> {
    return this.admin.updateProfile(userId, change);
  }
  deleteUser(userId: string): Promise<DirectoryUser | null> {
    return this.admin.deleteUser(userId);
  }
}

function notFound(userId: string): AdministrationResult {
  return { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` };
}
