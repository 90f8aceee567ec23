/**
 * Migration 002: the unique folded name (NFKC, then lower case) on sys_user and member. It refuses,
 * before changing anything, when existing names clash; it fills the column in the application (not
 * with SQL's LOWER(), which is not NFKC); and it can be run again after an interruption.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { foldedClashes, MigrationRefused, parseStep } from '../../src/adapters/sql/migration-steps';
import { migrate } from '../../src/adapters/sql/migrator';
import { runOps } from '../../src/main/ops-cli';
import { HASH } from '../contract/user-directory.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const MIGRATIONS = path.resolve(__dirname, '../../db/migrations');

/** A migrations directory holding only 001: the schema as it was before 002. */
function onlyInit(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agmig-'));
  writeFileSync(path.join(dir, '001_init.sql'), readFileSync(path.join(MIGRATIONS, '001_init.sql'), 'utf8'));
  return dir;
}

describe('migration steps (no database)', () => {
  it('parses SQL, each step, and refuses unknown steps and bad names', () => {
    assert.deepEqual(parseStep('SELECT 1'), { kind: 'sql', sql: 'SELECT 1' });
    assert.deepEqual(parseStep('@refuse-folded-clashes sys_user member'), {
      kind: 'refuse-folded-clashes',
      tables: ['sys_user', 'member'],
    });
    assert.deepEqual(parseStep('@fill-folded-usernames member'), { kind: 'fill-folded-usernames', table: 'member' });
    assert.deepEqual(parseStep('@unless-column t.c ALTER TABLE t\n  ADD COLUMN c INT'), {
      kind: 'unless-column',
      table: 't',
      name: 'c',
      sql: 'ALTER TABLE t\n  ADD COLUMN c INT',
    });
    assert.deepEqual(parseStep('@unless-index t.uk ALTER TABLE t ADD UNIQUE KEY uk (c)'), {
      kind: 'unless-index',
      table: 't',
      name: 'uk',
      sql: 'ALTER TABLE t ADD UNIQUE KEY uk (c)',
    });
    assert.throws(() => parseStep('@drop-everything now'), /unknown migration step/);
    assert.throws(() => parseStep('@fill-folded-usernames member; DROP TABLE x'), /unknown migration step|not a table/);
    assert.throws(() => parseStep('@refuse-folded-clashes `member`'), /not a table, column or index name/);
    assert.throws(() => parseStep('@unless-column member ALTER TABLE member ADD COLUMN x INT'), /not a table, column or index name/);
  });

  it('finds names that fold together (case, Unicode form, the trailing spaces the index pads) and folds too long for the column', () => {
    const rows = [
      { id: '1', username: 'alice' },
      { id: '2', username: 'bob' },
      { id: '3', username: 'Alice' },
      { id: '4', username: '\uFF22\uFF2F\uFF22' }, // fullwidth ＢＯＢ
      { id: '5', username: 'carol' },
      { id: '6', username: 'carol ' },
      { id: '7', username: '\uFDFA'.repeat(11) }, // one character, 18 when folded
    ];
    assert.deepEqual(foldedClashes(rows), [
      '"alice" (id 1) / "Alice" (id 3) fold to the same name',
      '"bob" (id 2) / "ＢＯＢ" (id 4) fold to the same name',
      '"carol" (id 5) / "carol " (id 6) fold to the same name',
      `"${'\uFDFA'.repeat(11)}" (id 7) folds to more than 191 characters`,
    ]);
    assert.deepEqual(foldedClashes(rows.slice(1, 2).concat(rows.slice(4, 5))), []);
  });
});

describe('migration 002: unique folded usernames (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
  });
  beforeEach(async () => {
    db = await ScratchDatabase.create('foldmig', { migrate: false });
    await migrate(db.pool, onlyInit());
  });
  afterEach(async () => db?.drop());

  const insert = (table: 'sys_user' | 'member', username: string) =>
    db.pool.execute(`INSERT INTO ${table} (username, nickname, password) VALUES (?, ?, ?)`, [username, username, HASH]);
  const foldedColumns = async () => {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      "SELECT table_name AS t FROM information_schema.columns WHERE table_schema = ? AND column_name = 'username_folded' ORDER BY 1",
      [db.name],
    );
    return rows.map((r) => String(r.t));
  };
  const versions = async () =>
    (await db.pool.query<RowDataPacket[]>('SELECT version FROM schema_migrations ORDER BY version'))[0].map((r) => String(r.version));

  it('refuses existing clashes in both tables in one message naming every name, and changes nothing', async () => {
    await insert('sys_user', 'alice');
    await insert('sys_user', 'carol');
    await insert('sys_user', 'Alice');
    await insert('member', 'Bob');
    await insert('member', '\uFF42\uFF4F\uFF42'); // fullwidth ｂｏｂ: LOWER() would not catch it
    await assert.rejects(migrate(db.pool), (e: Error) => {
      assert.ok(e instanceof MigrationRefused);
      assert.match(e.message, /^migration 002_username_folded refused: usernames must be unique whatever their case/);
      assert.match(e.message, /in sys_user: "alice" \(id 1\) \/ "Alice" \(id 3\) fold to the same name/);
      assert.match(e.message, /in member: "Bob" \(id 1\) \/ "ｂｏｂ" \(id 2\) fold to the same name/);
      assert.doesNotMatch(e.message, /carol/);
      assert.match(e.message, /Nothing was changed\.$/);
      return true;
    });
    assert.deepEqual(await foldedColumns(), [], 'the schema is as it was');
    assert.deepEqual(await versions(), ['001']);
  });

  it('after the clash is fixed it applies: the folded names come from NFKC, and the index refuses a twin', async () => {
    await insert('sys_user', 'Admin');
    await insert('sys_user', '\uFF36iewer'); // fullwidth V
    await insert('member', 'alice');
    await insert('member', 'ALICE');
    await assert.rejects(migrate(db.pool), MigrationRefused);
    await db.pool.execute("UPDATE member SET username = 'alice2' WHERE username = 'ALICE'");
    assert.deepEqual((await migrate(db.pool)).applied, ['002', '003', '006']);
    const [users] = await db.pool.query<RowDataPacket[]>('SELECT username, username_folded AS f FROM sys_user ORDER BY id');
    assert.deepEqual(
      users.map((r) => [r.username, r.f]),
      [
        ['Admin', 'admin'],
        ['\uFF36iewer', 'viewer'],
      ],
    );
    const [members] = await db.pool.query<RowDataPacket[]>('SELECT username_folded AS f FROM member ORDER BY id');
    assert.deepEqual(
      members.map((r) => r.f),
      ['alice', 'alice2'],
    );
    await assert.rejects(
      db.pool.execute("INSERT INTO member (username, username_folded, nickname, password) VALUES ('Alice', 'alice', 'x', ?)", [HASH]),
      (e: { errno?: number }) => e.errno === 1062,
    );
    await assert.rejects(
      db.pool.execute("INSERT INTO sys_user (username, nickname, password) VALUES ('x', 'x', ?)", [HASH]),
      /username_folded/,
      'the column is NOT NULL',
    );
  });

  it('runs again to completion after an interruption (column already added, index not yet)', async () => {
    await insert('sys_user', 'Root');
    await db.pool.query(
      'ALTER TABLE sys_user ADD COLUMN username_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL AFTER username',
    );
    assert.deepEqual((await migrate(db.pool)).applied, ['002', '003', '006']);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT username_folded AS f FROM sys_user');
    assert.deepEqual(
      rows.map((r) => r.f),
      ['root'],
    );
    assert.deepEqual(await foldedColumns(), ['member', 'sys_user']);
  });

  it('npm run db:migrate prints the refusal and exits 1', async () => {
    await insert('member', 'alice');
    await insert('member', 'Alice');
    const ds = db.settings;
    const lines = { out: [] as string[], err: [] as string[] };
    const env = {
      APP_PROFILE: 'test',
      SVC_DIRECTORY: 'sql',
      SVC_DATASOURCE_URL: ds.url,
      SVC_DATASOURCE_USERNAME: ds.username,
      SVC_DATASOURCE_PASSWORD: ds.password,
    };
    const code = await runOps(['db', 'migrate'], { env, out: (l) => lines.out.push(l), err: (l) => lines.err.push(l) });
    assert.equal(code, 1);
    assert.deepEqual(lines.out, []);
    assert.match(lines.err.join('\n'), /in member: "alice" \(id 1\) \/ "Alice" \(id 2\) fold to the same name/);
  });
});
