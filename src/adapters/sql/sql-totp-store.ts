/**
 * TOTP factors in MySQL / MariaDB (migration 004: mfa_totp, mfa_totp_pending, mfa_recovery_code), keyed by account
 * type and user id as account_password_history is (003): `admin` a sys_user id, `member` (the web login type) a member
 * id. An id that is not a row id of those tables has no factor (and gets none).
 *
 * Shared by every instance, so the atomic steps hold across instances: a time step is accepted by one conditional
 * UPDATE (`last_step < ?`), a recovery code by one DELETE, an activation in one transaction that locks the pending row.
 */
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { LoginType } from '../../domain/login-type';
import type { ActiveTotp, TotpActivation, TotpStore } from '../../application/ports/totp-store';

const ER_DUP_ENTRY = 1062;
const WHERE_ACCOUNT = 'account_type = ? AND user_id = ?';
/** The ids of sys_user and member (BIGINT, as the SQL directories hand them out). */
const ID = /^[1-9][0-9]{0,18}$/;

/** The row key of an account: [account_type, user_id], or null for an id no SQL account has. */
function keyOf(loginType: LoginType, userId: string): [string, string] | null {
  return ID.test(userId) ? [loginType === 'admin' ? 'admin' : 'member', userId] : null;
}

export class SqlTotpStore implements TotpStore {
  constructor(private readonly pool: Pool) {}

  async savePending(loginType: LoginType, userId: string, secret: string, expiresAt: number): Promise<void> {
    const key = keyOf(loginType, userId);
    if (key === null) throw new Error('not an account id of the SQL directory');
    await this.pool.execute(
      `INSERT INTO mfa_totp_pending (account_type, user_id, secret, expires_at) VALUES (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE secret = VALUES(secret), expires_at = VALUES(expires_at)`,
      [...key, secret, expiresAt],
    );
  }

  async pending(loginType: LoginType, userId: string, now: number): Promise<string | null> {
    const key = keyOf(loginType, userId);
    if (key === null) return null;
    const [rows] = await this.pool.execute<RowDataPacket[]>(
      `SELECT secret FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT} AND expires_at > ?`,
      [...key, now],
    );
    return rows[0] === undefined ? null : String(rows[0].secret);
  }

  async activate(loginType: LoginType, userId: string, activation: TotpActivation, now: number): Promise<boolean> {
    const key = keyOf(loginType, userId);
    if (key === null) return false;
    return this.inTransaction(async (conn) => {
      const [rows] = await conn.execute<RowDataPacket[]>(
        `SELECT secret, expires_at FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT} FOR UPDATE`,
        key,
      );
      const p = rows[0];
      if (p === undefined || String(p.secret) !== activation.pendingSecret || Number(p.expires_at) <= now) return false;
      try {
        await conn.execute('INSERT INTO mfa_totp (account_type, user_id, secret, last_step) VALUES (?, ?, ?, ?)', [
          ...key,
          activation.pendingSecret,
          activation.lastStep,
        ]);
      } catch (e) {
        if ((e as { errno?: number }).errno === ER_DUP_ENTRY) return false;
        throw e;
      }
      await conn.execute(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, key);
      if (activation.recoveryCodeHashes.length > 0) {
        await conn.query('INSERT INTO mfa_recovery_code (account_type, user_id, code_hash) VALUES ?', [
          activation.recoveryCodeHashes.map((h) => [...key, h]),
        ]);
      }
      await conn.execute(`DELETE FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT}`, key);
      return true;
    });
  }

  async active(loginType: LoginType, userId: string): Promise<ActiveTotp | null> {
    const key = keyOf(loginType, userId);
    if (key === null) return null;
    const [rows] = await this.pool.execute<RowDataPacket[]>(`SELECT secret, last_step FROM mfa_totp WHERE ${WHERE_ACCOUNT}`, key);
    const r = rows[0];
    return r === undefined ? null : { secret: String(r.secret), lastStep: Number(r.last_step) };
  }

  async acceptStep(loginType: LoginType, userId: string, step: number, resealed?: string): Promise<boolean> {
    const key = keyOf(loginType, userId);
    if (key === null) return false;
    const [res] = await this.pool.execute<ResultSetHeader>(
      `UPDATE mfa_totp SET last_step = ?, secret = COALESCE(?, secret) WHERE ${WHERE_ACCOUNT} AND last_step < ?`,
      [step, resealed ?? null, ...key, step],
    );
    return res.affectedRows === 1;
  }

  async useRecoveryCode(loginType: LoginType, userId: string, hash: string): Promise<boolean> {
    const key = keyOf(loginType, userId);
    if (key === null) return false;
    const [res] = await this.pool.execute<ResultSetHeader>(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT} AND code_hash = ?`, [
      ...key,
      hash,
    ]);
    return res.affectedRows === 1;
  }

  async recoveryCodesLeft(loginType: LoginType, userId: string): Promise<number> {
    const key = keyOf(loginType, userId);
    if (key === null) return 0;
    const [rows] = await this.pool.execute<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, key);
    return Number(rows[0]?.n ?? 0);
  }

  async remove(loginType: LoginType, userId: string): Promise<boolean> {
    const key = keyOf(loginType, userId);
    if (key === null) return false;
    let wasActive = false;
    await this.inTransaction(async (conn) => {
      const [res] = await conn.execute<ResultSetHeader>(`DELETE FROM mfa_totp WHERE ${WHERE_ACCOUNT}`, key);
      await conn.execute(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, key);
      await conn.execute(`DELETE FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT}`, key);
      wasActive = res.affectedRows === 1;
      return true;
    });
    return wasActive;
  }

  /** Commits what `fn` did when it answers true, else rolls it back. */
  private async inTransaction(fn: (conn: PoolConnection) => Promise<boolean>): Promise<boolean> {
    const conn = await this.pool.getConnection();
    try {
      await conn.beginTransaction();
      const done = await fn(conn);
      if (done) await conn.commit();
      else await conn.rollback();
      return done;
    } catch (e) {
      await conn.rollback().catch(() => undefined);
      throw e;
    } finally {
      conn.release();
    }
  }
}
