/**
 * The filtered listing, profile edits and deletion of admin accounts in sys_user (UserAdministration;
 * the role half is SqlUserDirectory's). Every value reaches the server as a parameter; the WHERE
 * clauses are fixed fragments chosen by which filters are given, never built from input.
 *
 * - findUsers: a COUNT and a page (`ORDER BY id LIMIT ? OFFSET ?`) with the same conditions: the
 *   username as a part of `username_folded` (LIKE with `!` escaping `%`, `_` and `!`), the status
 *   flag, a role through EXISTS on sys_user_role (assigned, enabled or not).
 * - updateProfile: ONE UPDATE (the e-mail's unique index decides a race: email-taken, nothing
 *   written); `email_verified` is assigned before `email_folded`, so it compares the old address.
 * - deleteUser: one transaction: the row locked, read, its password history and the row deleted
 *   (sys_user_role goes with it: ON DELETE CASCADE). AUTO_INCREMENT never hands its id out again.
 */
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { ProfileChange, ProfileResult, UserQuery } from '../../application/ports/user-administration';
import type { DirectoryUser } from '../../application/ports/user-directory';
import { foldUsername } from '../../domain/username';
import { duplicateEmail, foldedEmailColumn, STATUS_DISABLED, STATUS_ENABLED, type Queryable } from './sql-accounts';

const ID = /^[1-9][0-9]{0,18}$/;

/** `text` as a LIKE pattern matching it anywhere, `!` escaping the pattern characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** The conditions and their values for a query (fixed fragments, in a fixed order). */
function whereOf(q: UserQuery): { sql: string; values: string[] } {
  const parts: string[] = [];
  const values: string[] = [];
  if (q.username !== undefined && q.username !== '') {
    parts.push("u.username_folded LIKE ? ESCAPE '!'");
    values.push(containsPattern(foldUsername(q.username)));
  }
  if (q.status !== undefined) {
    parts.push('u.status = ?');
    values.push(q.status === 'enabled' ? STATUS_ENABLED : STATUS_DISABLED);
  }
  if (q.role !== undefined) {
    parts.push('EXISTS (SELECT 1 FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.role_key = ?)');
    values.push(q.role);
  }
  return { sql: parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`, values };
}

export interface UserAdminTable {
  readonly pool: Pool;
  /** The SELECT of one account as a login sees it (FROM sys_user u), without a WHERE. */
  readonly select: string;
  readonly toUser: (row: RowDataPacket) => DirectoryUser;
  readonly one: (db: Queryable, where: string, value: string) => Promise<DirectoryUser | null>;
  readonly timeout: number;
}

export class SqlUserAdmin {
  constructor(private readonly t: UserAdminTable) {}

  private sql(sql: string): { sql: string; timeout: number } {
    return { sql, timeout: this.t.timeout };
  }

  async findUsers(q: UserQuery): Promise<{ total: number; users: DirectoryUser[] }> {
    const where = whereOf(q);
    const offset = Math.max(0, Math.floor(q.offset));
    const limit = Math.max(0, Math.min(1000, Math.floor(q.limit)));
    const [[count], [rows]] = await Promise.all([
      this.t.pool.query<RowDataPacket[]>(this.sql(`SELECT COUNT(*) AS n FROM sys_user u${where.sql}`), where.values),
      this.t.pool.query<RowDataPacket[]>(this.sql(`${this.t.select}${where.sql} ORDER BY u.id LIMIT ? OFFSET ?`), [
        ...where.values,
        limit,
        offset,
      ]),
    ]);
    return { total: Number(count[0]?.n ?? 0), users: rows.map((r) => this.t.toUser(r)) };
  }

  async updateProfile(userId: string, change: ProfileChange): Promise<ProfileResult> {
    const notFound = { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` } as const;
    if (!ID.test(userId)) return notFound;
    const sets: string[] = [];
    const values: Array<string | null> = [];
    const set = (column: string, value: string | null) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (change.nickname !== undefined) set('nickname', change.nickname);
    if (change.avatar !== undefined) set('avatar', change.avatar);
    if (change.phone !== undefined) set('phone', change.phone);
    if (change.email !== undefined) {
      const folded = change.email === null ? null : foldedEmailColumn(change.email);
      // Before email_folded changes: the mark stays only for the same address respelt.
      sets.push('email_verified = IF(email_folded <=> ?, email_verified, 0)');
      values.push(folded);
      set('email', change.email === null ? null : change.email.trim());
      set('email_folded', folded);
    }
    if (sets.length > 0) {
      try {
        const [res] = await this.t.pool.execute<ResultSetHeader>(this.sql(`UPDATE sys_user SET ${sets.join(', ')} WHERE id = ?`), [
          ...values,
          userId,
        ]);
        if (res.affectedRows === 0) return notFound;
      } catch (e) {
        if (duplicateEmail(e)) return { ok: false, reason: 'email-taken', detail: 'The e-mail address is already taken.' };
        throw e;
      }
    }
    const user = await this.t.one(this.t.pool, 'u.id = ?', userId);
    return user === null ? notFound : { ok: true, user };
  }

  async deleteUser(userId: string): Promise<DirectoryUser | null> {
    if (!ID.test(userId)) return null;
    const conn = await this.t.pool.getConnection();
    try {
      await conn.beginTransaction();
      const [locked] = await conn.execute<RowDataPacket[]>(this.sql('SELECT id FROM sys_user WHERE id = ? FOR UPDATE'), [userId]);
      const user = locked.length === 0 ? null : await this.t.one(conn, 'u.id = ?', userId);
      if (user !== null) {
        await conn.execute(this.sql("DELETE FROM account_password_history WHERE account_type = 'admin' AND user_id = ?"), [userId]);
        await conn.execute(this.sql('DELETE FROM sys_user WHERE id = ?'), [userId]);
      }
      await conn.commit();
      return user;
    } catch (e) {
      await conn.rollback().catch(() => undefined);
      throw e;
    } finally {
      conn.release();
    }
  }
}
