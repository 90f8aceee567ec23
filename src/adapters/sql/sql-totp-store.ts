/**
 * TOTP factors in MySQL / MariaDB (migration 004: mfa_totp, mfa_totp_pending, mfa_recovery_code), keyed by account
 * type (the login type) and user id. Shared by every instance, so the atomic steps hold across instances: a time step
 * is accepted by one conditional UPDATE (`last_step < ?`), a recovery code by one DELETE, an activation in one
 * transaction that locks the pending row.
 */
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { LoginType } from '../../domain/login-type';
import type { ActiveTotp, TotpActivation, TotpStore } from '../../application/ports/totp-store';

const ER_DUP_ENTRY = 1062;
const WHERE_ACCOUNT = 'account_type = ? AND user_id = ?';

export class SqlTotpStore implements TotpStore {
  constructor(private readonly pool: Pool) {}

  async savePending(loginType: LoginType, userId: string, secret: string, expiresAt: number): Promise<void> {
    await this.pool.execute(
      `INSERT INTO mfa_totp_pending (account_type, user_id, secret, expires_at) VALUES (?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE secret = VALUES(secret), expires_at = VALUES(expires_at)`,
      [loginType, userId, secret, expiresAt],
    );
  }

  async pending(loginType: LoginType, userId: string, now: number): Promise<string | null> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(
      `SELECT secret FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT} AND expires_at > ?`,
      [loginType, userId, now],
    );
    return rows[0] === undefined ? null : String(rows[0].secret);
  }

  async activate(loginType: LoginType, userId: string, activation: TotpActivation, now: number): Promise<boolean> {
    return this.inTransaction(async (conn) => {
      const [rows] = await conn.execute<RowDataPacket[]>(
        `SELECT secret, expires_at FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT} FOR UPDATE`,
        [loginType, userId],
      );
      const p = rows[0];
      if (p === undefined || String(p.secret) !== activation.pendingSecret || Number(p.expires_at) <= now) return false;
      try {
        await conn.execute('INSERT INTO mfa_totp (account_type, user_id, secret, last_step) VALUES (?, ?, ?, ?)', [
          loginType,
          userId,
          activation.pendingSecret,
          activation.lastStep,
        ]);
      } catch (e) {
        if ((e as { errno?: number }).errno === ER_DUP_ENTRY) return false;
        throw e;
      }
      await conn.execute(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, [loginType, userId]);
      if (activation.recoveryCodeHashes.length > 0) {
        await conn.query('INSERT INTO mfa_recovery_code (account_type, user_id, code_hash) VALUES ?', [
          activation.recoveryCodeHashes.map((h) => [loginType, userId, h]),
        ]);
      }
      await conn.execute(`DELETE FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT}`, [loginType, userId]);
      return true;
    });
  }

  async active(loginType: LoginType, userId: string): Promise<ActiveTotp | null> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(`SELECT secret, last_step FROM mfa_totp WHERE ${WHERE_ACCOUNT}`, [
      loginType,
      userId,
    ]);
    const r = rows[0];
    return r === undefined ? null : { secret: String(r.secret), lastStep: Number(r.last_step) };
  }

  async acceptStep(loginType: LoginType, userId: string, step: number, resealed?: string): Promise<boolean> {
    const [res] = await this.pool.execute<ResultSetHeader>(
      `UPDATE mfa_totp SET last_step = ?, secret = COALESCE(?, secret) WHERE ${WHERE_ACCOUNT} AND last_step < ?`,
      [step, resealed ?? null, loginType, userId, step],
    );
    return res.affectedRows === 1;
  }

  async useRecoveryCode(loginType: LoginType, userId: string, hash: string): Promise<boolean> {
    const [res] = await this.pool.execute<ResultSetHeader>(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT} AND code_hash = ?`, [
      loginType,
      userId,
      hash,
    ]);
    return res.affectedRows === 1;
  }

  async recoveryCodesLeft(loginType: LoginType, userId: string): Promise<number> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, [
      loginType,
      userId,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  async remove(loginType: LoginType, userId: string): Promise<boolean> {
    let wasActive = false;
    await this.inTransaction(async (conn) => {
      const [res] = await conn.execute<ResultSetHeader>(`DELETE FROM mfa_totp WHERE ${WHERE_ACCOUNT}`, [loginType, userId]);
      await conn.execute(`DELETE FROM mfa_recovery_code WHERE ${WHERE_ACCOUNT}`, [loginType, userId]);
      await conn.execute(`DELETE FROM mfa_totp_pending WHERE ${WHERE_ACCOUNT}`, [loginType, userId]);
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
