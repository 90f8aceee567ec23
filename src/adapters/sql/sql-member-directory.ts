/**
 * The web app's members (table `member`) in MySQL / MariaDB. Members hold no roles or
 * permissions: a member account is a login, nothing more. One statement per lookup. Names are
 * unique and looked up by their folded form (`username_folded`), as in sys_user; e-mail addresses
 * by theirs (`email_folded`), and the account state (AccountStore) is ./sql-accounts.ts on `member`, which it extends.
 */
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import { foldUsername } from '../../domain/username';
import { ACCOUNT_STATE_COLUMNS, SqlAccounts, type Queryable } from './sql-accounts';
import {
  directoryUserOf,
  emailColumns,
  listPage,
  sameFoldedName,
  STATUS_ENABLED,
  takenOnInsert,
  type SqlDirectoryOptions,
} from './sql-user-directory';

const ID = /^[1-9][0-9]{0,18}$/;
const SELECT = `SELECT u.id, u.username, u.nickname, u.avatar, u.password, u.status, ${ACCOUNT_STATE_COLUMNS} FROM member u`;

function toMember(row: RowDataPacket): DirectoryUser {
  return directoryUserOf(row, [], []);
}

export class SqlMemberDirectory extends SqlAccounts implements UserDirectory {
  constructor(pool: Pool, opts: SqlDirectoryOptions = {}) {
    super(pool, { table: 'member', accountType: 'member' }, opts.queryTimeoutMs);
  }

  protected async one(db: Queryable, where: string, value: string): Promise<DirectoryUser | null> {
    const [rows] = await db.execute<RowDataPacket[]>({ sql: `${SELECT} WHERE ${where}`, timeout: this.timeout }, [value]);
    return rows[0] === undefined ? null : toMember(rows[0]);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    const folded = foldUsername(username);
    const m = await this.one(this.pool, 'u.username_folded = ?', folded);
    return m !== null && sameFoldedName(m.username, folded) ? m : null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    return ID.test(id) ? this.one(this.pool, 'u.id = ?', id) : null;
  }

  async create(user: NewUser): Promise<CreateUserResult> {
    if (user.roles.length > 0) return { ok: false, reason: 'unknown-role', detail: 'Members hold no roles.' };
    try {
      const [res] = await this.pool.execute<ResultSetHeader>(
        {
          sql:
            'INSERT INTO member (username, username_folded, nickname, avatar, password, status, email, email_folded) ' +
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
      const created = await this.one(this.pool, 'u.id = ?', String(res.insertId));
      if (created === null) throw new Error('created member vanished');
      return { ok: true, user: created };
    } catch (e) {
      const taken = takenOnInsert(e, user.username);
      if (taken !== null) return taken;
      throw e;
    }
  }

  list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    return listPage(
      this.pool,
      { count: 'SELECT COUNT(*) AS n FROM member', page: `${SELECT} ORDER BY u.id LIMIT ? OFFSET ?`, timeout: this.timeout },
      offset,
      limit,
      toMember,
    );
  }
}
