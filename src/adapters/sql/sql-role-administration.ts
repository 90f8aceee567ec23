/**
 * Roles in MySQL / MariaDB: sys_role (`role_key` unique and binary, `status` '0' enabled, order_num and remark from
 * migration 007) and its menus in sys_role_menu. A write is one transaction that locks the role row first; the menus
 * a write links are read in share mode, so a concurrent removal of one of them waits (and then finds the role holding
 * it). A role's permissions are its menus' (disabled ones included), the role `admin` `*:*:*` (the login's rule:
 * src/domain/role-permissions.ts). Every value reaches the server as a parameter.
 */
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Role, RoleAdministration, RoleFields, RoleFilter, RoleRemoval, RoleWrite } from '../../application/ports/role-administration';
import { effectivePermissions } from '../../domain/role-permissions';
import { ER_DUP_ENTRY, STATUS_DISABLED, STATUS_ENABLED, type Queryable } from './sql-accounts';
import { inTransaction, SQL_ID } from './sql-transaction';

const ROLE_COLUMNS = 'r.id, r.role_key, r.name, r.order_num, r.status, r.remark';

/** `%` and `_` of a filter are literal characters; `\` is LIKE's escape. */
const likeOf = (part: string): string => `%${part.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const notFound = (id: string) => ({ ok: false, reason: 'role-not-found', detail: `No role with id "${id}".` }) as const;

export class SqlRoleAdministration implements RoleAdministration {
  constructor(
    private readonly pool: Pool,
    private readonly timeout = 5000,
  ) {}

  /** The roles of these rows with their menus (one more statement for all of them). */
  private async withMenus(db: Queryable, rows: readonly RowDataPacket[]): Promise<Role[]> {
    if (rows.length === 0) return [];
    const [links] = await db.query<RowDataPacket[]>(
      {
        sql:
          'SELECT rm.role_id, rm.menu_id, m.permission FROM sys_role_menu rm JOIN sys_menu m ON m.id = rm.menu_id ' +
          'WHERE rm.role_id IN (?)',
        timeout: this.timeout,
      },
      [rows.map((r) => String(r.id))],
    );
    return rows.map((r) => {
      const mine = links.filter((l) => String(l.role_id) === String(r.id));
      const key = String(r.role_key);
      return {
        id: String(r.id),
        key,
        name: String(r.name),
        orderNum: Number(r.order_num ?? 0),
        enabled: r.status === STATUS_ENABLED,
        remark: String(r.remark ?? ''),
        menuIds: mine.map((l) => String(l.menu_id)).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)),
        permissions: effectivePermissions(
          [key],
          mine.map((l) => (l.permission === null ? null : String(l.permission))),
        ),
      };
    });
  }

  private async one(db: Queryable, id: string, lock = false): Promise<Role | null> {
    const [rows] = await db.query<RowDataPacket[]>(
      { sql: `SELECT ${ROLE_COLUMNS} FROM sys_role r WHERE r.id = ?${lock ? ' FOR UPDATE' : ''}`, timeout: this.timeout },
      [id],
    );
    return (await this.withMenus(db, rows))[0] ?? null;
  }

  async listRoles(filter: RoleFilter, offset: number, limit: number): Promise<{ total: number; roles: Role[] }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.key !== undefined) {
      where.push('LOWER(r.role_key) LIKE LOWER(?)');
      params.push(likeOf(filter.key));
    }
    if (filter.name !== undefined) {
      where.push('r.name LIKE ?');
      params.push(likeOf(filter.name));
    }
    if (filter.enabled !== undefined) {
      where.push('r.status = ?');
      params.push(filter.enabled ? STATUS_ENABLED : STATUS_DISABLED);
    }
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    const lim = Math.max(0, Math.min(1000, Math.floor(limit)));
    const off = Math.max(0, Math.floor(offset));
    const [[count], [rows]] = await Promise.all([
      this.pool.query<RowDataPacket[]>({ sql: `SELECT COUNT(*) AS n FROM sys_role r ${clause}`, timeout: this.timeout }, params),
      this.pool.query<RowDataPacket[]>(
        { sql: `SELECT ${ROLE_COLUMNS} FROM sys_role r ${clause} ORDER BY r.order_num, r.id LIMIT ? OFFSET ?`, timeout: this.timeout },
        [...params, lim, off],
      ),
    ]);
    return { total: Number(count[0]?.n ?? 0), roles: await this.withMenus(this.pool, rows) };
  }

  async findRole(id: string): Promise<Role | null> {
    return SQL_ID.test(id) ? this.one(this.pool, id) : null;
  }

  /** The ids that name no menu (the others are locked in share mode until the transaction ends). */
  private async unknownMenus(conn: PoolConnection, menuIds: readonly string[]): Promise<RoleWrite | null> {
    const wanted = [...new Set(menuIds)];
    if (wanted.length === 0) return null;
    const valid = wanted.filter((m) => SQL_ID.test(m));
    const [rows] =
      valid.length === 0
        ? [[] as RowDataPacket[]]
        : await conn.query<RowDataPacket[]>({ sql: 'SELECT id FROM sys_menu WHERE id IN (?) LOCK IN SHARE MODE', timeout: this.timeout }, [
            valid,
          ]);
    const found = new Set(rows.map((r) => String(r.id)));
    const unknown = wanted.filter((m) => !found.has(m));
    return unknown.length === 0 ? null : { ok: false, reason: 'unknown-menu', detail: `No menu with id ${unknown.join(', ')}.` };
  }

  private async link(conn: PoolConnection, roleId: string, menuIds: readonly string[]): Promise<void> {
    await conn.query({ sql: 'DELETE FROM sys_role_menu WHERE role_id = ?', timeout: this.timeout }, [roleId]);
    const ids = [...new Set(menuIds)];
    if (ids.length > 0) {
      await conn.query({ sql: 'INSERT INTO sys_role_menu (role_id, menu_id) VALUES ?', timeout: this.timeout }, [
        ids.map((m) => [roleId, m]),
      ]);
    }
  }

  createRole(key: string, fields: RoleFields, menuIds: readonly string[]): Promise<RoleWrite> {
    return inTransaction<RoleWrite>(this.pool, async (conn) => {
      const unknown = await this.unknownMenus(conn, menuIds);
      if (unknown !== null) return unknown;
      let id: string;
      try {
        const [res] = await conn.query<ResultSetHeader>(
          { sql: 'INSERT INTO sys_role (role_key, name, order_num, status, remark) VALUES (?, ?, ?, ?, ?)', timeout: this.timeout },
          [key, fields.name, fields.orderNum, fields.enabled ? STATUS_ENABLED : STATUS_DISABLED, fields.remark],
        );
        id = String(res.insertId);
      } catch (e) {
        if ((e as { errno?: number }).errno === ER_DUP_ENTRY)
          return { ok: false, reason: 'role-key-taken', detail: `The role key "${key}" is already taken.` };
        throw e;
      }
      await this.link(conn, id, menuIds);
      return this.written(conn, id);
    });
  }

  private async written(conn: PoolConnection, id: string): Promise<RoleWrite> {
    const role = await this.one(conn, id);
    return role === null ? notFound(id) : { ok: true, role };
  }

  updateRole(id: string, fields: RoleFields): Promise<RoleWrite> {
    if (!SQL_ID.test(id)) return Promise.resolve(notFound(id));
    return inTransaction<RoleWrite>(this.pool, async (conn) => {
      if ((await this.one(conn, id, true)) === null) return notFound(id);
      await conn.query({ sql: 'UPDATE sys_role SET name = ?, order_num = ?, status = ?, remark = ? WHERE id = ?', timeout: this.timeout }, [
        fields.name,
        fields.orderNum,
        fields.enabled ? STATUS_ENABLED : STATUS_DISABLED,
        fields.remark,
        id,
      ]);
      return this.written(conn, id);
    });
  }

  setRoleMenus(id: string, menuIds: readonly string[]): Promise<RoleWrite> {
    if (!SQL_ID.test(id)) return Promise.resolve(notFound(id));
    return inTransaction<RoleWrite>(this.pool, async (conn) => {
      if ((await this.one(conn, id, true)) === null) return notFound(id);
      const unknown = await this.unknownMenus(conn, menuIds);
      if (unknown !== null) return unknown;
      await this.link(conn, id, menuIds);
      return this.written(conn, id);
    });
  }

  removeRole(id: string): Promise<RoleRemoval> {
    if (!SQL_ID.test(id)) return Promise.resolve(notFound(id));
    return inTransaction<RoleRemoval>(this.pool, async (conn) => {
      const role = await this.one(conn, id, true);
      if (role === null) return notFound(id);
      const [count] = await conn.query<RowDataPacket[]>(
        { sql: 'SELECT COUNT(*) AS n FROM sys_user_role WHERE role_id = ?', timeout: this.timeout },
        [id],
      );
      const users = Number(count[0]?.n ?? 0);
      if (users > 0) {
        return { ok: false, reason: 'role-in-use', detail: `Role "${role.key}" is assigned to ${users} user(s): take it from them first.` };
      }
      await conn.query({ sql: 'DELETE FROM sys_role WHERE id = ?', timeout: this.timeout }, [id]);
      return { ok: true, role };
    });
  }

  async usersOfRole(id: string): Promise<readonly string[]> {
    if (!SQL_ID.test(id)) return [];
    const [rows] = await this.pool.query<RowDataPacket[]>(
      { sql: 'SELECT user_id FROM sys_user_role WHERE role_id = ? ORDER BY user_id', timeout: this.timeout },
      [id],
    );
    return rows.map((r) => String(r.user_id));
  }
}
