/**
 * Migration 003: the account lifecycle's columns on sys_user and member (disabled_reason,
 * disabled_until, must_change_password, password_changed_at, email, email_folded with a unique
 * index, email_verified) and account_password_history. Existing accounts keep working (every new
 * column is NULL or defaults), many accounts may have no address, and every statement runs again
 * after an interruption.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { runStep } from '../../src/adapters/sql/migration-steps';
import { migrate, readMigrations } from '../../src/adapters/sql/migrator';
import { SqlMemberDirectory } from '../../src/adapters/sql/sql-member-directory';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import { HASH } from '../contract/user-directory.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const MIGRATIONS = path.resolve(__dirname, '../../db/migrations');
const TABLES = ['sys_user', 'member'] as const;

/** A migrations directory holding 001 and 002: the schema as it was before 003. */
function before003(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agmig-'));
  for (const f of ['001_init.sql', '002_username_folded.sql'])
    writeFileSync(path.join(dir, f), readFileSync(path.join(MIGRATIONS, f), 'utf8'));
  return dir;
}

describe('migration 003: account lifecycle (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
  });
  beforeEach(async () => {
    db = await ScratchDatabase.create('lifecycle', { migrate: false });
    await migrate(db.pool, before003());
  });
  afterEach(async () => db?.drop());

  const insert = (table: 'sys_user' | 'member', username: string) =>
    db.pool.execute(`INSERT INTO ${table} (username, username_folded, nickname, password) VALUES (?, ?, ?, ?)`, [
      username,
      username,
      username,
      HASH,
    ]);

  const columns = async (table: string) => {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT column_name AS c, column_type AS t, is_nullable AS n, column_default AS d, collation_name AS k ' +
        'FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position',
      [db.name, table],
    );
    return new Map(rows.map((r) => [String(r.c), { type: String(r.t), nullable: r.n === 'YES', def: r.d, collation: r.k }]));
  };

  it('adds the columns and the history table; existing accounts get no state and keep logging in', async () => {
    await insert('sys_user', 'root');
    await insert('member', 'alice');
    await insert('member', 'bob');
    assert.deepEqual((await migrate(db.pool)).applied, ['003', '006']);
    for (const table of TABLES) {
      const c = await columns(table);
      assert.match(c.get('disabled_reason')?.type ?? '', /^varchar\(255\)$/, table);
      assert.equal(c.get('disabled_reason')?.nullable, true);
      assert.match(c.get('disabled_until')?.type ?? '', /^datetime\(3\)$/);
      assert.match(c.get('password_changed_at')?.type ?? '', /^datetime\(3\)$/);
      assert.match(c.get('email')?.type ?? '', /^varchar\(254\)$/);
      assert.match(c.get('email_folded')?.type ?? '', /^varchar\(191\)$/);
      assert.equal(c.get('email_folded')?.collation, 'utf8mb4_bin');
      for (const flag of ['must_change_password', 'email_verified']) {
        assert.match(c.get(flag)?.type ?? '', /^tinyint\(1\)$/, flag);
        assert.equal(c.get(flag)?.nullable, false, flag);
        assert.equal(String(c.get(flag)?.def), '0', flag);
      }
    }
    const history = await columns('account_password_history');
    assert.deepEqual([...history.keys()], ['id', 'account_type', 'user_id', 'password', 'create_time']);
    assert.equal(history.get('account_type')?.type, "enum('admin','member')");
    const root = await new SqlUserDirectory(db.pool).findByUsername('root');
    assert.deepEqual(
      [
        root?.passwordHash,
        root?.enabled,
        root?.disabledReason,
        root?.disabledUntil,
        root?.mustChangePassword,
        root?.email,
        root?.emailVerified,
      ],
      [HASH, true, null, null, false, null, false],
    );
    const members = new SqlMemberDirectory(db.pool);
    assert.equal((await members.findByUsername('bob'))?.email, null, 'many accounts without an address (NULL repeats in the index)');
    const alice = await members.findByUsername('alice');
    assert.ok(alice);
    assert.ok((await members.setEmail(alice.id, 'Alice@Example.test', true)).ok);
  });

  it('the unique index on email_folded holds even for a row written past the adapter', async () => {
    await migrate(db.pool);
    for (const table of TABLES) {
      const insert = (name: string, email: string) =>
        db.pool.execute(
          `INSERT INTO ${table} (username, username_folded, nickname, password, email, email_folded) VALUES (?, ?, ?, ?, ?, ?)`,
          [name, name, name, HASH, email, email.toLowerCase()],
        );
      await insert('a', 'X@y.test');
      await assert.rejects(
        insert('b', 'x@Y.test'),
        (e: { errno?: number; message?: string }) => e.errno === 1062 && /email_folded/.test(e.message ?? ''),
        table,
      );
    }
  });

  it('every statement runs again: after an interruption (some columns added, no index yet), and on the finished schema', async () => {
    await db.pool.query('ALTER TABLE sys_user ADD COLUMN disabled_reason VARCHAR(255) NULL AFTER status');
    await db.pool.query(
      'ALTER TABLE member ADD COLUMN email_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL AFTER status',
    );
    assert.deepEqual((await migrate(db.pool)).applied, ['003', '006']);
    const m003 = readMigrations().find((m) => m.version === '003');
    assert.ok(m003);
    const conn = await db.pool.getConnection();
    try {
      for (const step of m003.steps) await runStep(conn, step, '003_account_lifecycle');
    } finally {
      conn.release();
    }
    const [indexes] = await db.pool.query<RowDataPacket[]>(
      'SELECT table_name AS t, non_unique AS n FROM information_schema.statistics ' +
        "WHERE table_schema = ? AND index_name LIKE 'uk_%_email_folded' ORDER BY 1",
      [db.name],
    );
    assert.deepEqual(
      indexes.map((r) => [r.t, Number(r.n)]),
      [
        ['member', 0],
        ['sys_user', 0],
      ],
    );
    for (const table of TABLES) assert.ok((await columns(table)).has('email_verified'), table);
  });
});
