/**
 * The menu catalogue in MySQL / MariaDB: sys_menu with the columns of migration 007 (RuoYi's: `name` is the title,
 * `route_name` the vue-router name, `menu_type` M/C/F, `status` '0' enabled). A write is one transaction: a create
 * locks its parent row (and reads the menus above it: at most MAX_MENU_DEPTH levels); an update locks every menu row
 * first (re-parenting serialises, so two concurrent moves cannot close a cycle between them); a removal locks the
 * menu, then counts its children and the roles holding it (the foreign key on parent_id refuses a child's parent
 * too). Every value reaches the server as a parameter.
 */
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { MenuCatalogue, MenuRemoval, MenuWrite } from '../../application/ports/menu-catalogue';
import { treeProblem, type Menu, type MenuFields, type MenuType } from '../../domain/menu';
import { STATUS_DISABLED, STATUS_ENABLED } from './sql-accounts';
import { inTransaction, SQL_ID } from './sql-transaction';

const MENU_COLUMNS =
  'id, parent_id, menu_type, name, route_name, path, component, icon, order_num, visible, keep_alive, permission, status';

/** MySQL's "a foreign key constraint fails" on deleting a referenced row. */
const ER_ROW_IS_REFERENCED_2 = 1451;

export function menuOf(row: RowDataPacket): Menu {
  return {
    id: String(row.id),
    parentId: row.parent_id === null || row.parent_id === undefined ? null : String(row.parent_id),
    type: String(row.menu_type) as MenuType,
    title: String(row.name),
    name: String(row.route_name ?? ''),
    path: String(row.path ?? ''),
    component: row.component === null || row.component === undefined ? null : String(row.component),
    icon: String(row.icon ?? ''),
    orderNum: Number(row.order_num ?? 0),
    visible: Number(row.visible ?? 1) === 1,
    keepAlive: Number(row.keep_alive ?? 0) === 1,
    permission: row.permission === null || row.permission === undefined || row.permission === '' ? null : String(row.permission),
    enabled: row.status === STATUS_ENABLED,
  };
}

/** The row values of `fields`, in the order of the INSERT and UPDATE column lists below. */
function valuesOf(f: MenuFields): unknown[] {
  return [
    f.parentId,
    f.type,
    f.title,
    f.name,
    f.path,
    f.component,
    f.icon,
    f.orderNum,
    f.visible ? 1 : 0,
    f.keepAlive ? 1 : 0,
    f.permission === null || f.permission === '' ? null : f.permission,
    f.enabled ? STATUS_ENABLED : STATUS_DISABLED,
  ];
}

const notFound = (id: string) => ({ ok: false, reason: 'menu-not-found', detail: `No menu with id "${id}".` }) as const;

export class SqlMenuCatalogue implements MenuCatalogue {
  constructor(
    private readonly pool: Pool,
    private readonly timeout = 5000,
  ) {}

  private async select(db: Pick<Pool, 'query'> | PoolConnection, where: string, params: unknown[]): Promise<Menu[]> {
    const [rows] = await db.query<RowDataPacket[]>({ sql: `SELECT ${MENU_COLUMNS} FROM sys_menu ${where}`, timeout: this.timeout }, params);
    return rows.map(menuOf);
  }

  /** Every menu's id, parent and type (`lock`: ' FOR UPDATE', or '' for a plain read). */
  private async shape(conn: PoolConnection, lock: string): Promise<Pick<Menu, 'id' | 'parentId' | 'type'>[]> {
    const [rows] = await conn.query<RowDataPacket[]>({
      sql: `SELECT id, parent_id, menu_type FROM sys_menu${lock}`,
      timeout: this.timeout,
    });
    return rows.map((r) => ({
      id: String(r.id),
      parentId: r.parent_id === null ? null : String(r.parent_id),
      type: String(r.menu_type) as MenuType,
    }));
  }

  async menus(): Promise<readonly Menu[]> {
    return this.select(this.pool, '', []);
  }

  async findMenu(id: string): Promise<Menu | null> {
    if (!SQL_ID.test(id)) return null;
    return (await this.select(this.pool, 'WHERE id = ?', [id]))[0] ?? null;
  }

  createMenu(fields: MenuFields): Promise<MenuWrite> {
    return inTransaction<MenuWrite>(this.pool, async (conn) => {
      // The parent is locked (a concurrent removal or move waits); the menus above it give the new menu's level.
      const parents =
        fields.parentId === null || !SQL_ID.test(fields.parentId)
          ? []
          : await this.select(conn, 'WHERE id = ? FOR UPDATE', [fields.parentId]);
      const problem = treeProblem(parents.length === 0 ? [] : await this.shape(conn, ''), null, fields);
      if (problem !== null) return { ok: false, reason: 'invalid-tree', detail: problem };
      const [res] = await conn.query<ResultSetHeader>(
        {
          sql:
            'INSERT INTO sys_menu (parent_id, menu_type, name, route_name, path, component, icon, order_num, visible, keep_alive, ' +
            'permission, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
          timeout: this.timeout,
        },
        valuesOf(fields),
      );
      return { ok: true, menu: { ...fields, id: String(res.insertId) } };
    });
  }

  updateMenu(id: string, fields: MenuFields): Promise<MenuWrite> {
    if (!SQL_ID.test(id)) return Promise.resolve(notFound(id));
    return inTransaction<MenuWrite>(this.pool, async (conn) => {
      const tree = await this.shape(conn, ' FOR UPDATE');
      if (!tree.some((m) => m.id === id)) return notFound(id);
      const problem = treeProblem(tree, id, fields);
      if (problem !== null) return { ok: false, reason: 'invalid-tree', detail: problem };
      await conn.query(
        {
          sql:
            'UPDATE sys_menu SET parent_id = ?, menu_type = ?, name = ?, route_name = ?, path = ?, component = ?, icon = ?, ' +
            'order_num = ?, visible = ?, keep_alive = ?, permission = ?, status = ? WHERE id = ?',
          timeout: this.timeout,
        },
        [...valuesOf(fields), id],
      );
      return { ok: true, menu: { ...fields, id } };
    });
  }

  removeMenu(id: string): Promise<MenuRemoval> {
    if (!SQL_ID.test(id)) return Promise.resolve(notFound(id));
    return inTransaction<MenuRemoval>(this.pool, async (conn) => {
      if ((await this.select(conn, 'WHERE id = ? FOR UPDATE', [id])).length === 0) return notFound(id);
      const [[kids], [roles]] = [
        await conn.query<RowDataPacket[]>({ sql: 'SELECT COUNT(*) AS n FROM sys_menu WHERE parent_id = ?', timeout: this.timeout }, [id]),
        await conn.query<RowDataPacket[]>(
          {
            sql: 'SELECT r.role_key FROM sys_role_menu rm JOIN sys_role r ON r.id = rm.role_id WHERE rm.menu_id = ? ORDER BY r.role_key',
            timeout: this.timeout,
          },
          [id],
        ),
      ];
      const children = Number(kids[0]?.n ?? 0);
      if (children > 0) return hasChildren(id, children);
      if (roles.length > 0) {
        const keys = roles.map((r) => String(r.role_key)).join(', ');
        return { ok: false, reason: 'menu-in-use', detail: `Menu ${id} is held by role(s) ${keys}: take it from them first.` };
      }
      try {
        await conn.query({ sql: 'DELETE FROM sys_menu WHERE id = ?', timeout: this.timeout }, [id]);
      } catch (e) {
        // A child inserted since the count (its insert waited for nothing: it locks the parent only in share mode).
        if ((e as { errno?: number }).errno === ER_ROW_IS_REFERENCED_2) return hasChildren(id, 1);
        throw e;
      }
      return { ok: true };
    });
  }

  async usersOfMenu(id: string): Promise<readonly string[]> {
    if (!SQL_ID.test(id)) return [];
    const [rows] = await this.pool.query<RowDataPacket[]>(
      {
        sql:
          'SELECT DISTINCT ur.user_id FROM sys_role_menu rm JOIN sys_user_role ur ON ur.role_id = rm.role_id ' +
          'WHERE rm.menu_id = ? ORDER BY ur.user_id',
        timeout: this.timeout,
      },
      [id],
    );
    return rows.map((r) => String(r.user_id));
  }
}

function hasChildren(id: string, n: number): MenuRemoval {
  return { ok: false, reason: 'menu-has-children', detail: `Menu ${id} has ${n} child menu(s): remove them first.` };
}
