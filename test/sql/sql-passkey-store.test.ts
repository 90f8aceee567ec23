/** The SQL passkey store (table `passkey`, migration 005) under the PasskeyStore contract, and its migration re-run. */
import assert from 'node:assert/strict';
import type { RowDataPacket } from 'mysql2/promise';
import { SqlPasskeyStore } from '../../src/adapters/sql/sql-passkey-store';
import { migrate } from '../../src/adapters/sql/migrator';
import { describePasskeyStoreContract } from '../contract/passkey-store.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

describe('SQL passkey store (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('passkeys');
  });
  after(async () => db?.drop());

  describePasskeyStoreContract('MariaDB (SqlPasskeyStore)', async () => {
    await db.clear();
    return { store: new SqlPasskeyStore(db.pool) };
  });

  it('migration 005 can run again on its own table (IF NOT EXISTS), the rows kept', async () => {
    await db.clear();
    await db.pool.query(
      'INSERT INTO passkey (login_type, id_hash, credential_id, user_id, public_key, device_type, created_at) ' +
        "VALUES ('web', ?, 'AA', '1', ?, 'singleDevice', 1)",
      [Buffer.alloc(32), Buffer.from([1])],
    );
    await db.pool.query("DELETE FROM schema_migrations WHERE version = '005'");
    assert.deepEqual((await migrate(db.pool)).applied, ['005']);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM passkey');
    assert.equal(Number(rows[0]?.n), 1);
  });
});
