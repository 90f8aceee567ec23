/** The TotpStore contract on MariaDB, two pools on one database standing for two instances; migration 004 re-runs. */
import assert from 'node:assert/strict';
import type { RowDataPacket } from 'mysql2/promise';
import { createMySqlPool } from '../../src/adapters/sql/mysql-pool';
import { SqlTotpStore } from '../../src/adapters/sql/sql-totp-store';
import { readMigrations } from '../../src/adapters/sql/migrator';
import { runStep } from '../../src/adapters/sql/migration-steps';
import { describeTotpStoreContract } from '../contract/totp-store.contract';
import { MARIADB, ScratchDatabase, requireMariaDb } from '../support/mariadb';

describe('SQL TOTP store (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('totp');
  });
  after(async () => db?.drop());

  describeTotpStoreContract('MariaDB (SqlTotpStore, two pools)', async () => {
    for (const t of ['mfa_totp', 'mfa_totp_pending', 'mfa_recovery_code']) await db.pool.query(`DELETE FROM \`${t}\``);
    const second = createMySqlPool(MARIADB, { database: db.name, connectionLimit: 4 });
    return { a: new SqlTotpStore(db.pool), b: new SqlTotpStore(second), close: () => second.end() };
  });

  it('migration 004 is idempotent: its statements run again without error and change nothing', async () => {
    const m = readMigrations().find((f) => f.version === '004');
    assert.ok(m, 'db/migrations/004_mfa_totp.sql');
    const conn = await db.pool.getConnection();
    try {
      for (const step of m.steps) await runStep(conn, step, '004_mfa_totp');
    } finally {
      conn.release();
    }
    const [rows] = await db.pool.query<RowDataPacket[]>(
      "SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'mfa\\_%' ORDER BY 1",
    );
    assert.deepEqual(
      rows.map((r) => r.t),
      ['mfa_recovery_code', 'mfa_totp', 'mfa_totp_pending'],
    );
  });
});
