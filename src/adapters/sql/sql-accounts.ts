/**
 * The AccountStore of one SQL account table (sys_user for admins, member for web members;
 * migration 003): password changes with their history (`account_password_history`), enabled /
 * disabled with a reason and an optional end (`disabled_reason`, `disabled_until`), the "must
 * change password" mark and the e-mail address (`email` as given, `email_folded` unique).
 *
 * Times are stored in UTC (`disabled_until`, `password_changed_at`), whatever the server's zone.
 * Each call is one statement, or one transaction that locks the account row first (setPassword),
 * so concurrent changes of one account serialise. E-mail uniqueness is the unique index on
 * `email_folded`: of two concurrent writers of one address exactly one wins, the other is
 * `email-taken` (NULL, no address, may repeat).
 */
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { AccountStatus, AccountStore, PasswordChange, SetEmailResult } from '../../application/ports/account-store';
import { foldEmail } from '../../application/ports/account-store';
import type { DirectoryUser } from '../../application/ports/user-directory';

export const ER_DUP_ENTRY = 1062;
/** RuoYi's status convention (the `status` column of sys_user and member). */
export const STATUS_ENABLED = '0';
export const STATUS_DISABLED = '1';
const ID = /^[1-9][0-9]{0,18}$/;
/** The widest folded address the unique index holds (VARCHAR(191): 767 bytes in any InnoDB row format). */
export const EMAIL_FOLDED_MAX = 191;
/** DATETIME's range ends in year 9999: a later ban end is stored as its last millisecond (still "until enabled"). */
const DATETIME_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const DATETIME_MIN_MS = Date.UTC(1000, 0, 1);

export type Queryable = Pick<Pool, 'execute' | 'query'> | PoolConnection;

/** A UTC DATETIME(3) literal for `ms` (clamped to DATETIME's range). */
export function sqlUtc(ms: number): string {
  const clamped = Math.min(DATETIME_MAX_MS, Math.max(DATETIME_MIN_MS, Math.trunc(ms)));
  return new Date(clamped).toISOString().replace('T', ' ').slice(0, 23);
}

/** A DATETIME column read back (a string with the pool's dateStrings, else a Date), as ms since epoch in UTC; null for NULL. */
export function msOfSqlUtc(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date)
    return Date.UTC(v.getFullYear(), v.getMonth(), v.getDate(), v.getHours(), v.getMinutes(), v.getSeconds(), v.getMilliseconds());
  const ms = Date.parse(`${String(v).replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** The account-state columns of a row (migration 003), as DirectoryUser fields. */
export function accountStateOf(
  row: RowDataPacket,
): Pick<DirectoryUser, 'disabledReason' | 'disabledUntil' | 'mustChangePassword' | 'email' | 'emailVerified'> {
  return {
    disabledReason: row.disabled_reason === null || row.disabled_reason === undefined ? null : String(row.disabled_reason),
    disabledUntil: msOfSqlUtc(row.disabled_until),
    mustChangePassword: Number(row.must_change_password ?? 0) === 1,
    email: row.email === null || row.email === undefined ? null : String(row.email),
    emailVerified: Number(row.email_verified ?? 0) === 1,
  };
}

/** The columns accountStateOf reads, for a SELECT list on the table aliased `u`. */
export const ACCOUNT_STATE_COLUMNS = 'u.disabled_reason, u.disabled_until, u.must_change_password, u.email, u.email_verified';

/** Whether a duplicate-key error is the e-mail index's (else it is the username's). */
export function duplicateEmail(e: unknown): boolean {
  return (e as { errno?: number }).errno === ER_DUP_ENTRY && /email_folded/.test(String((e as { message?: unknown }).message));
}

/** The value of `email_folded` for an address (refusing one the index cannot hold). */
export function foldedEmailColumn(email: string): string {
  const folded = foldEmail(email);
  if (folded.length > EMAIL_FOLDED_MAX) throw new RangeError(`an e-mail address is at most ${EMAIL_FOLDED_MAX} characters here`);
  return folded;
}

export interface AccountTable {
  /** sys_user or member: a constant of the code, never input. */
  readonly table: 'sys_user' | 'member';
  /** The account_type of its rows in account_password_history. */
  readonly accountType: 'admin' | 'member';
}

/**
 * A SQL directory's AccountStore half, on its table: the directory (sys_user's, member's) extends it
 * and says how it reads an account (`one`), which every change here answers with.
 */
export abstract class SqlAccounts implements AccountStore {
  /** A statement that takes longer fails (the caller answers 503) instead of hanging. */
  protected readonly timeout: number;

  protected constructor(
    protected readonly pool: Pool,
    private readonly t: AccountTable,
    queryTimeoutMs: number | undefined,
  ) {
    this.timeout = queryTimeoutMs ?? 5000;
  }

  /** The account as a login sees it, by a condition on the table aliased `u` (read on `db`: inside a transaction, its connection). */
  protected abstract one(db: Queryable, where: string, value: string): Promise<DirectoryUser | null>;

  private sql(sql: string): { sql: string; timeout: number } {
    return { sql, timeout: this.timeout };
  }

  async setPassword(userId: string, change: PasswordChange): Promise<DirectoryUser | null> {
    if (!ID.test(userId)) return null;
    const { table, accountType } = this.t;
    const keep = Math.max(0, Math.floor(change.keepHistory));
    const conn = await this.pool.getConnection();
    try {
      await conn.beginTransaction();
      // The row lock serialises concurrent changes of one account (the history stays in order).
      const [rows] = await conn.execute<RowDataPacket[]>(this.sql(`SELECT password FROM ${table} WHERE id = ? FOR UPDATE`), [userId]);
      const current = rows[0];
      if (current === undefined || (change.expectedHash !== undefined && current.password !== change.expectedHash)) {
        await conn.rollback();
        return null;
      }
      if (keep > 0) {
        await conn.execute(this.sql('INSERT INTO account_password_history (account_type, user_id, password) VALUES (?, ?, ?)'), [
          accountType,
          userId,
          String(current.password),
        ]);
      }
      await conn.execute(
        this.sql(`UPDATE ${table} SET password = ?, must_change_password = ?, password_changed_at = UTC_TIMESTAMP(3) WHERE id = ?`),
        [change.passwordHash, change.mustChange ? 1 : 0, userId],
      );
      await this.trimHistory(conn, userId, keep);
      const user = await this.one(conn, 'u.id = ?', userId);
      await conn.commit();
      return user;
    } catch (e) {
      await conn.rollback().catch(() => undefined);
      throw e;
    } finally {
      conn.release();
    }
  }

  /** Deletes all but the `keep` newest earlier hashes of the account. */
  private async trimHistory(conn: PoolConnection, userId: string, keep: number): Promise<void> {
    const where = 'account_type = ? AND user_id = ?';
    const args = [this.t.accountType, userId];
    if (keep === 0) {
      await conn.execute(this.sql(`DELETE FROM account_password_history WHERE ${where}`), args);
      return;
    }
    const [oldestKept] = await conn.query<RowDataPacket[]>(
      this.sql(`SELECT id FROM account_password_history WHERE ${where} ORDER BY id DESC LIMIT 1 OFFSET ?`),
      [...args, keep - 1],
    );
    const boundary = oldestKept[0]?.id;
    if (boundary !== undefined)
      await conn.execute(this.sql(`DELETE FROM account_password_history WHERE ${where} AND id < ?`), [...args, String(boundary)]);
  }

  async passwordHistory(userId: string, limit: number): Promise<readonly string[]> {
    const n = Math.min(1000, Math.floor(limit));
    if (!ID.test(userId) || !(n > 0)) return [];
    const [rows] = await this.pool.query<RowDataPacket[]>(
      this.sql('SELECT password FROM account_password_history WHERE account_type = ? AND user_id = ? ORDER BY id DESC LIMIT ?'),
      [this.t.accountType, userId, n],
    );
    return rows.map((r) => String(r.password));
  }

  async setStatus(userId: string, status: AccountStatus): Promise<DirectoryUser | null> {
    if (!ID.test(userId)) return null;
    const values = status.enabled
      ? [STATUS_ENABLED, null, null]
      : [STATUS_DISABLED, status.reason, status.until === null ? null : sqlUtc(status.until)];
    await this.pool.execute(this.sql(`UPDATE ${this.t.table} SET status = ?, disabled_reason = ?, disabled_until = ? WHERE id = ?`), [
      ...values,
      userId,
    ]);
    return this.one(this.pool, 'u.id = ?', userId);
  }

  async findByEmail(email: string): Promise<DirectoryUser | null> {
    const folded = foldEmail(email);
    if (folded === '' || folded.length > EMAIL_FOLDED_MAX) return null;
    const u = await this.one(this.pool, 'u.email_folded = ?', folded);
    // The binary collation pads ('a@b.c ' = 'a@b.c'): the row is the account only when its address folds to exactly this.
    return u !== null && u.email !== null && u.email !== undefined && foldEmail(u.email) === folded ? u : null;
  }

  async setEmail(userId: string, email: string, verified: boolean): Promise<SetEmailResult> {
    if (!ID.test(userId)) return { ok: false, reason: 'user-not-found' };
    try {
      await this.pool.execute(this.sql(`UPDATE ${this.t.table} SET email = ?, email_folded = ?, email_verified = ? WHERE id = ?`), [
        email.trim(),
        foldedEmailColumn(email),
        verified ? 1 : 0,
        userId,
      ]);
    } catch (e) {
      if (duplicateEmail(e)) return { ok: false, reason: 'email-taken' };
      throw e;
    }
    const user = await this.one(this.pool, 'u.id = ?', userId);
    return user === null ? { ok: false, reason: 'user-not-found' } : { ok: true, user };
  }

  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    const folded = foldEmail(email);
    if (!ID.test(userId) || folded === '' || folded.length > EMAIL_FOLDED_MAX) return false;
    // One statement: the address is compared and marked atomically (affectedRows counts matched rows: FOUND_ROWS).
    const [res] = await this.pool.execute<ResultSetHeader>(
      this.sql(`UPDATE ${this.t.table} SET email_verified = 1 WHERE id = ? AND email_folded = ?`),
      [userId, folded],
    );
    return res.affectedRows > 0;
  }
}
