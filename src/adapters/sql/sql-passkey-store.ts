/**
 * Passkeys in MySQL / MariaDB (table `passkey`, migration 005), one statement per call. Rows are
 * keyed by (login_type, SHA-256 of the credential id); `recordUse` moves the counter forward with
 * one conditional UPDATE, so two concurrent uses reporting the same counter cannot both pass.
 */
import { createHash } from 'node:crypto';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { LoginType } from '../../domain/login-type';
import type { PasskeyStore, PasskeyUse, StoredPasskey } from '../../application/ports/passkey-store';
import type { SqlDirectoryOptions } from './sql-user-directory';

const ER_DUP_ENTRY = 1062;
const COLUMNS = 'credential_id, user_id, public_key, counter, transports, name, device_type, backed_up, created_at, last_used_at';

const idHash = (credentialId: string): Buffer => createHash('sha256').update(credentialId, 'utf8').digest();

function passkeyOf(row: RowDataPacket): StoredPasskey {
  const transports = String(row.transports);
  return {
    id: String(row.credential_id),
    userId: String(row.user_id),
    publicKey: Buffer.from(row.public_key as Buffer).toString('base64url'),
    counter: Number(row.counter),
    transports: transports === '' ? [] : transports.split(','),
    name: String(row.name),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    deviceType: row.device_type === 'multiDevice' ? 'multiDevice' : 'singleDevice',
    backedUp: Number(row.backed_up) === 1,
  };
}

export class SqlPasskeyStore implements PasskeyStore {
  private readonly timeout: number;

  constructor(
    private readonly pool: Pool,
    opts: SqlDirectoryOptions = {},
  ) {
    this.timeout = opts.queryTimeoutMs ?? 5000;
  }

  async add(loginType: LoginType, p: StoredPasskey): Promise<boolean> {
    try {
      await this.pool.execute<ResultSetHeader>(
        { sql: `INSERT INTO passkey (login_type, id_hash, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, timeout: this.timeout },
        [
          loginType,
          idHash(p.id),
          p.id,
          p.userId,
          Buffer.from(p.publicKey, 'base64url'),
          p.counter,
          p.transports.join(','),
          p.name,
          p.deviceType,
          p.backedUp ? 1 : 0,
          p.createdAt,
          p.lastUsedAt,
        ],
      );
      return true;
    } catch (e) {
      if ((e as { errno?: number }).errno === ER_DUP_ENTRY) return false;
      throw e;
    }
  }

  async find(loginType: LoginType, credentialId: string): Promise<StoredPasskey | null> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(
      { sql: `SELECT ${COLUMNS} FROM passkey WHERE login_type = ? AND id_hash = ?`, timeout: this.timeout },
      [loginType, idHash(credentialId)],
    );
    const row = rows[0];
    return row !== undefined && String(row.credential_id) === credentialId ? passkeyOf(row) : null;
  }

  async list(loginType: LoginType, userId: string): Promise<StoredPasskey[]> {
    const [rows] = await this.pool.execute<RowDataPacket[]>(
      {
        sql: `SELECT ${COLUMNS} FROM passkey WHERE login_type = ? AND user_id = ? ORDER BY created_at, credential_id`,
        timeout: this.timeout,
      },
      [loginType, userId],
    );
    return rows.map(passkeyOf);
  }

  async remove(loginType: LoginType, userId: string, credentialId: string): Promise<boolean> {
    const [res] = await this.pool.execute<ResultSetHeader>(
      { sql: 'DELETE FROM passkey WHERE login_type = ? AND id_hash = ? AND user_id = ? AND credential_id = ?', timeout: this.timeout },
      [loginType, idHash(credentialId), userId, credentialId],
    );
    return res.affectedRows === 1;
  }

  async recordUse(loginType: LoginType, credentialId: string, use: PasskeyUse): Promise<boolean> {
    // affectedRows counts matched rows (mysql2 connects with FOUND_ROWS), so "0 after 0" counts too.
    const [res] = await this.pool.execute<ResultSetHeader>(
      {
        sql:
          'UPDATE passkey SET counter = ?, last_used_at = ?, backed_up = ? WHERE login_type = ? AND id_hash = ? AND credential_id = ? ' +
          'AND (counter < ? OR (counter = 0 AND ? = 0))',
        timeout: this.timeout,
      },
      [use.counter, use.usedAt, use.backedUp ? 1 : 0, loginType, idHash(credentialId), credentialId, use.counter, use.counter],
    );
    return res.affectedRows === 1;
  }
}
