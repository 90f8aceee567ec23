import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { migrate, readMigrations, splitStatements } from '../../src/adapters/sql/migrator';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

describe('SQL migrations: files', () => {
  it('splits statements at a semicolon ending a line and drops comment lines', () => {
    assert.deepEqual(splitStatements('-- c\nCREATE TABLE a (x INT);\n\nINSERT INTO a VALUES (1);   \nSELECT 1'), [
      'CREATE TABLE a (x INT)',
      'INSERT INTO a VALUES (1)',
      'SELECT 1',
    ]);
  });
  it('the shipped migrations are well named, ordered and create every directory table', () => {
    const files = readMigrations();
    assert.equal(files[0]?.version, '001');
    const sql = files.flatMap((f) => f.statements).join('\n');
    for (const t of ['sys_user', 'sys_role', 'sys_menu', 'sys_user_role', 'sys_role_menu', 'member', 'account_password_history'])
      assert.match(sql, new RegExp(`CREATE TABLE IF NOT EXISTS ${t} \\(`));
  });
  it('refuses a badly named file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agmig-'));
    writeFileSync(path.join(dir, 'init.sql'), 'SELECT 1;');
    assert.throws(() => readMigrations(dir), /NNN_name\.sql/);
  });
});

/** Every shipped version, in order (001, 002, ...). */
const SHIPPED = readMigrations().map((f) => f.version);

describe('SQL migrations: runner (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('migrator', { migrate: false });
  });
  after(async () => db?.drop());

  it('applies every version once, records it, and applies nothing the second time', async () => {
    const first = await migrate(db.pool);
    assert.deepEqual(first.applied, SHIPPED);
    assert.deepEqual(SHIPPED.slice(0, 4), ['001', '002', '003', '004']);
    const second = await migrate(db.pool);
    assert.deepEqual(second, { applied: [], alreadyApplied: SHIPPED });
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(
      rows.map((r) => r.version),
      SHIPPED,
    );
    const [tables] = await db.pool.query<RowDataPacket[]>(
      'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? ORDER BY 1',
      [db.name],
    );
    assert.deepEqual(
      tables.map((r) => r.t),
      [
        'account_password_history',
        'member',
        'mfa_recovery_code',
        'mfa_totp',
        'mfa_totp_pending',
        'passkey',
        'schema_migrations',
        'sys_login_log',
        'sys_menu',
        'sys_oper_log',
        'sys_role',
        'sys_role_menu',
        'sys_user',
        'sys_user_role',
      ],
    );
  });

  it('two concurrent runners do not both apply a version', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agmig-'));
    writeFileSync(path.join(dir, '001_init.sql'), readMigrationText());
    writeFileSync(path.join(dir, '900_extra.sql'), 'CREATE TABLE IF NOT EXISTS extra_t (id INT PRIMARY KEY);\n');
    const [a, b] = await Promise.all([migrate(db.pool, dir), migrate(db.pool, dir)]);
    assert.deepEqual([...a.applied, ...b.applied], ['900']);
  });

  it('refuses a migration changed after it was applied', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agmig-'));
    writeFileSync(path.join(dir, '001_init.sql'), readMigrationText() + '\n-- edited\n');
    await assert.rejects(migrate(db.pool, dir), /was changed after it was applied/);
  });
});

function readMigrationText(file = '001_init.sql'): string {
  return readFileSync(path.resolve(__dirname, '../../db/migrations', file), 'utf8');
}
