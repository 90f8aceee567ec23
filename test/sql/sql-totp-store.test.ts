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

  it("rows are keyed as account_password_history's (admin: sys_user ids, member: the web app's member ids)", async () => {
    for (const t of ['mfa_totp', 'mfa_totp_pending', 'mfa_recovery_code']) await db.pool.query(`DELETE FROM \`${t}\``);
    const store = new SqlTotpStore(db.pool);
    await store.savePending('web', '7', 'v1.sealed', Date.UTC(2030, 0, 1));
    await store.savePending('admin', '7', 'v1.other', Date.UTC(2030, 0, 1));
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT account_type AS t, user_id AS u FROM mfa_totp_pending ORDER BY 1');
    assert.deepEqual(
      rows.map((r) => [r.t, String(r.u)]),
      [
        ['admin', '7'],
        ['member', '7'],
      ],
    );
    assert.equal(await store.pending('web', '7', Date.UTC(2026, 0, 1)), 'v1.sealed');
    // An id no SQL account has: no factor, and none can be set up.
    assert.equal(await store.active('admin', 'alice'), null);
    assert.equal(await store.acceptStep('admin', 'alice', 5), false);
    await assert.rejects(store.savePending('admin', 'alice', 'v1.x', Date.UTC(2030, 0, 1)));
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
