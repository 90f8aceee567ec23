import assert from 'node:assert/strict';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { SqlMemberDirectory } from '../../src/adapters/sql/sql-member-directory';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import {
  FIXTURE,
  HASH,
  MEMBER_FIXTURE,
  describeAccountStoreContract,
  hashNo,
  describeUserAdministrationContract,
  describeUserDirectoryContract,
  type MakeDirectory,
} from '../contract/user-directory.contract';
import { describeUserRecordsContract } from '../contract/user-records.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { seedSqlFixture, seedSqlMembers } from './fixture';

describe('SQL user directory (MariaDB)', function () {
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('directory');
  });
  after(async () => db?.drop());

  const make: MakeDirectory = async (f) => {
    await db.clear();
    await seedSqlFixture(db.pool, f);
    const dir = new SqlUserDirectory(db.pool);
    return { directory: dir, administration: dir, accounts: dir };
  };
  describeUserDirectoryContract('MariaDB (SqlUserDirectory)', make);
  describeUserAdministrationContract('MariaDB (SqlUserDirectory)', make);
  describeUserRecordsContract('MariaDB (SqlUserDirectory)', make);
  describeAccountStoreContract('MariaDB (SqlUserDirectory, sys_user)', make);

  const makeMembers: MakeDirectory = async (f) => {
    await db.clear();
    await seedSqlMembers(db.pool, f);
    const dir = new SqlMemberDirectory(db.pool);
    return { directory: dir, accounts: dir };
  };
  describeAccountStoreContract('MariaDB (SqlMemberDirectory, member)', makeMembers, MEMBER_FIXTURE);

  describe('sys_menu rules and the one-statement login', () => {
    let ids: Map<string, string>;
    beforeEach(async () => {
      await db.clear();
      ids = await seedSqlFixture(db.pool, FIXTURE);
    });

    async function addMenu(roleKey: string, permission: string | null, status: '0' | '1'): Promise<void> {
      const [m] = await db.pool.execute<ResultSetHeader>('INSERT INTO sys_menu (name, permission, status) VALUES (?, ?, ?)', [
        'extra',
        permission,
        status,
      ]);
      await db.pool.execute('INSERT INTO sys_role_menu (role_id, menu_id) SELECT id, ? FROM sys_role WHERE role_key = ?', [
        String(m.insertId),
        roleKey,
      ]);
    }

    it('disabled menus, NULL and empty permissions grant nothing; comma lists are split', async () => {
      await addMenu('auditor', 'monitor:job:run', '1');
      await addMenu('auditor', null, '0');
      await addMenu('auditor', '', '0');
      await addMenu('auditor', 'monitor:job:list, monitor:job:query', '0');
      await addMenu('viewer', 'monitor:job:list', '0');
      const u = await new SqlUserDirectory(db.pool).findByUsername('ann');
      assert.deepEqual(u?.permissions, [
        'monitor:job:list',
        'monitor:job:query',
        'monitor:log:list',
        'monitor:online:list',
        'system:user:list',
      ]);
    });

    it('a login lookup is one statement on the pool (no per-role queries)', async () => {
      const calls: string[] = [];
      const counting = new Proxy(db.pool, {
        get(target, prop, receiver) {
          const v = Reflect.get(target, prop, receiver) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            calls.push(String(prop));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as Pool;
      const dir = new SqlUserDirectory(counting);
      const u = await dir.findByUsername('ann');
      assert.equal(u?.roles.length, 2);
      assert.deepEqual(calls, ['execute']);
      calls.length = 0;
      await dir.findById(ids.get('dan') as string);
      assert.deepEqual(calls, ['execute']);
    });

    it('usernames match by their folded form (ANN is ann, shown as stored), never by the trailing-space match of PAD SPACE', async () => {
      const dir = new SqlUserDirectory(db.pool);
      assert.equal((await dir.findByUsername('ANN'))?.username, 'ann');
      assert.equal(await dir.findByUsername('ann '), null);
      assert.equal(await dir.findByUsername('ANN '), null);
      assert.ok(await dir.findByUsername('ann'));
    });

    it('the unique index on the folded name holds even for a row written past the adapter', async () => {
      await assert.rejects(
        db.pool.execute("INSERT INTO sys_user (username, username_folded, nickname, password) VALUES ('Ann', 'ann', 'Twin', ?)", [HASH]),
        (e: { errno?: number }) => e.errno === 1062,
      );
    });

    it('deleting a role removes it from its users (foreign keys cascade)', async () => {
      await db.pool.execute("DELETE FROM sys_role WHERE role_key = 'auditor'");
      const u = await new SqlUserDirectory(db.pool).findByUsername('ann');
      assert.deepEqual(u?.roles, ['viewer']);
    });
  });

  describe('members (table member)', () => {
    beforeEach(() => db.clear());

    it('finds, creates and lists members; no roles; taken names are values', async () => {
      const dir = new SqlMemberDirectory(db.pool);
      const r = await dir.create({ username: 'alice', nickname: 'Alice', passwordHash: HASH, roles: [] });
      assert.ok(r.ok);
      assert.deepEqual(
        { ...r.user, id: 'x' },
        {
          id: 'x',
          username: 'alice',
          nickname: 'Alice',
          avatar: '',
          passwordHash: HASH,
          enabled: true,
          roles: [],
          permissions: [],
          disabledReason: null,
          disabledUntil: null,
          mustChangePassword: false,
          email: null,
          emailVerified: false,
        },
      );
      assert.deepEqual(await dir.findByUsername('alice'), r.user);
      assert.deepEqual(await dir.findById(r.user.id), r.user);
      const taken = await dir.create({ username: 'alice', nickname: 'A2', passwordHash: HASH, roles: [] });
      assert.equal(!taken.ok && taken.reason, 'username-taken');
      const withRole = await dir.create({ username: 'bob', nickname: 'Bob', passwordHash: HASH, roles: ['viewer'] });
      assert.equal(!withRole.ok && withRole.reason, 'unknown-role');
      assert.deepEqual(
        (await dir.list(0, 10)).users.map((u) => u.username),
        ['alice'],
      );
      assert.equal(await dir.findByUsername('ghost'), null);
      assert.equal(await dir.findById('nope'), null);
    });

    it('member names are unique whatever their case; lookups fold and show the stored spelling', async () => {
      const dir = new SqlMemberDirectory(db.pool);
      const r = await dir.create({ username: 'Alice', nickname: 'Alice', passwordHash: HASH, roles: [] });
      assert.ok(r.ok);
      for (const twin of ['alice', 'ALICE', '\uFF41lice']) {
        const t = await dir.create({ username: twin, nickname: 'Twin', passwordHash: HASH, roles: [] });
        assert.equal(!t.ok && t.reason, 'username-taken', twin);
      }
      assert.deepEqual(await dir.findByUsername('aLiCe'), r.user);
      assert.equal(await dir.findByUsername('alice '), null);
      assert.deepEqual(
        (await dir.list(0, 10)).users.map((u) => u.username),
        ['Alice'],
      );
    });

    it('password histories of an admin and a member with the same id stay apart (account_type)', async () => {
      const admins = new SqlUserDirectory(db.pool);
      const members = new SqlMemberDirectory(db.pool);
      const a = await admins.create({ username: 'same', nickname: 'A', passwordHash: HASH, roles: [] });
      const m = await members.create({ username: 'same', nickname: 'M', passwordHash: HASH, roles: [], email: 'same@example.test' });
      assert.ok(a.ok && m.ok);
      await db.pool.execute('UPDATE member SET id = ? WHERE id = ?', [a.user.id, m.user.id]);
      await admins.setPassword(a.user.id, { passwordHash: hashNo(1), mustChange: false, keepHistory: 5 });
      await members.setPassword(a.user.id, { passwordHash: hashNo(2), mustChange: true, keepHistory: 5 });
      await members.setPassword(a.user.id, { passwordHash: hashNo(3), mustChange: true, keepHistory: 5 });
      assert.deepEqual(await admins.passwordHistory(a.user.id, 10), [HASH]);
      assert.deepEqual(await members.passwordHistory(a.user.id, 10), [hashNo(2), HASH]);
      await admins.setPassword(a.user.id, { passwordHash: hashNo(4), mustChange: false, keepHistory: 0 });
      assert.deepEqual(await members.passwordHistory(a.user.id, 10), [hashNo(2), HASH], "trimming an admin's history leaves the member's");
      assert.equal((await admins.findById(a.user.id))?.mustChangePassword, false);
      assert.equal((await members.findById(a.user.id))?.mustChangePassword, true);
      assert.equal(await admins.findByEmail('same@example.test'), null, 'e-mail addresses are per table');
      const [changed] = await db.pool.query<RowDataPacket[]>('SELECT password_changed_at AS t FROM member WHERE id = ?', [a.user.id]);
      assert.match(String(changed[0]?.t), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/, 'the change time is recorded');
    });

    it('a ban end is stored in UTC with milliseconds, whatever the session time zone', async () => {
      const dir = new SqlMemberDirectory(db.pool);
      const r = await dir.create({ username: 'zoned', nickname: 'Z', passwordHash: HASH, roles: [] });
      assert.ok(r.ok);
      const until = Date.UTC(2030, 2, 31, 1, 30, 0, 7);
      await dir.setStatus(r.user.id, { enabled: false, reason: null, until });
      const [rows] = await db.pool.query<RowDataPacket[]>('SELECT disabled_until AS u FROM member WHERE id = ?', [r.user.id]);
      assert.equal(rows[0]?.u, '2030-03-31 01:30:00.007');
      assert.equal((await dir.findById(r.user.id))?.disabledUntil, until);
      const far = await dir.setStatus(r.user.id, { enabled: false, reason: null, until: 8.64e15 });
      assert.equal(far?.disabledUntil, Date.UTC(9999, 11, 31, 23, 59, 59, 999), 'past DATETIME: its last millisecond');
    });

    it('a disabled member is returned marked disabled', async () => {
      await db.pool.execute(
        "INSERT INTO member (username, username_folded, nickname, password, status) VALUES ('carol', 'carol', 'Carol', ?, '1')",
        [HASH],
      );
      assert.equal((await new SqlMemberDirectory(db.pool).findByUsername('carol'))?.enabled, false);
    });
  });
});
