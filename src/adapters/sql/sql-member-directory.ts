/**
 * The web app's members (table `member`) in MySQL / MariaDB. Members hold no roles or
 * permissions: a member account is a login, nothing more. One statement per lookup. Names are
 * unique and looked up by their folded form (`username_folded`), as in sys_user.
 */
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import { foldUsername } from '../../domain/username';
import { directoryUserOf, listPage, sameFoldedName, STATUS_ENABLED, type SqlDirectoryOptions } from './sql-user-directory';

const ID = /^[1-9][0-9]{0,18}$/;
const ER_DUP_ENTRY = 1062;
const SELECT = 'SELECT id, username, nickname, avatar, password, status FROM member';

function toMember(row: RowDataPacket): DirectoryUser {
  return directoryUserOf(row, [], []);
}

export class SqlMemberDirectory implements UserDirectory {
  private readonly timeout: number;

  constructor(
    private readonly pool: Pool,
    opts: SqlDirectoryOptions = {},
  ) {
    this.timeout = opts.queryTimeoutMs ?? 5000;
  }

  private async one(where: string, value: string): Promise<DirectoryUser | null> {
    const [rows] = await this.pool.execute<RowDataPacket[]>({ sql: `${SELECT} WHERE ${where}`, timeout: this.timeout }, [value]);
    return rows[0] === undefined ? null : toMember(rows[0]);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    const folded = foldUsername(username);
    const m = await this.one('username_folded = ?', folded);
    return m !== null && sameFoldedName(m.username, folded) ? m : null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    return ID.test(id) ? this.one('id = ?', id) : null;
  }

  async create(user: NewUser): Promise<CreateUserResult> {
    if (user.roles.length > 0) return { ok: false, reason: 'unknown-role', detail: 'Members hold no roles.' };
    try {
      const [res] = await this.pool.execute<ResultSetHeader>(
        {
          sql: 'INSERT INTO member (username, username_folded, nickname, avatar, password, status) VALUES (?, ?, ?, ?, ?, ?)',
          timeout: this.timeout,
        },
        [user.username, foldUsername(user.username), user.nickname, user.avatar ?? '', user.passwordHash, STATUS_ENABLED],
      );
      const created = await this.one('id = ?', String(res.insertId));
      if (created === null) throw new Error('created member vanished');
      return { ok: true, user: created };
    } catch (e) {
      if ((e as { errno?: number }).errno === ER_DUP_ENTRY)
        return { ok: false, reason: 'username-taken', detail: `The username "${user.username}" is already taken.` };
      throw e;
    }
  }

  list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    return listPage(
      this.pool,
      { count: 'SELECT COUNT(*) AS n FROM member', page: `${SELECT} ORDER BY id LIMIT ? OFFSET ?`, timeout: this.timeout },
      offset,
      limit,
      toMember,
    );
  }
}
