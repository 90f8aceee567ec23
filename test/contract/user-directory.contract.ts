/**
 * One contract for the UserDirectory port (and the UserAdministration port where an adapter has
 * it), run against every adapter: each test gets a fresh directory holding the fixture below.
 * Arrays of roles and permissions are compared as sets (order is not part of the contract).
 */
import assert from 'node:assert/strict';
import type { UserAdministration } from '../../src/application/ports/user-administration';
import type { DirectoryUser, UserDirectory } from '../../src/application/ports/user-directory';

export interface FixtureRole {
  readonly key: string;
  readonly enabled: boolean;
  /** Permission strings the role grants (SQL: one enabled sys_menu each). */
  readonly permissions: readonly string[];
}

export interface FixtureUser {
  readonly username: string;
  readonly nickname: string;
  readonly avatar?: string;
  readonly passwordHash: string;
  readonly enabled: boolean;
  readonly roles: readonly string[];
}

export interface DirectoryFixture {
  readonly roles: readonly FixtureRole[];
  /** Created in this order (ids ascend in this order). */
  readonly users: readonly FixtureUser[];
}

export interface DirectoryUnderTest {
  readonly directory: UserDirectory;
  readonly administration?: UserAdministration;
  close?(): Promise<void>;
}

export type MakeDirectory = (fixture: DirectoryFixture) => Promise<DirectoryUnderTest>;

/** A real BCrypt hash (cost 4, password "pw"): the contract never checks it, only carries it. */
export const HASH = '$2b$04$65TqBsrJ6Zrfj/AULyltdejtskycxGnmba3K0DaFg1q8fEJrUuz6q';

export const FIXTURE: DirectoryFixture = {
  roles: [
    { key: 'admin', enabled: true, permissions: ['system:user:list'] },
    { key: 'viewer', enabled: true, permissions: ['system:user:list', 'monitor:online:list'] },
    { key: 'auditor', enabled: true, permissions: ['monitor:online:list', 'monitor:log:list'] },
    { key: 'editor', enabled: true, permissions: ['system:user:edit'] },
    { key: 'retired', enabled: false, permissions: ['system:user:remove'] },
  ],
  users: [
    { username: 'root', nickname: 'Root', avatar: 'https://example.test/root.png', passwordHash: HASH, enabled: true, roles: ['admin'] },
    { username: 'ann', nickname: 'Ann', passwordHash: HASH, enabled: true, roles: ['viewer', 'auditor'] },
    { username: 'dan', nickname: 'Dan', passwordHash: HASH, enabled: true, roles: ['viewer', 'retired'] },
    { username: 'off', nickname: 'Off', passwordHash: HASH, enabled: false, roles: ['viewer'] },
    { username: 'nobody', nickname: 'Nobody', passwordHash: HASH, enabled: true, roles: [] },
  ],
};

const sorted = (a: readonly string[]) => [...a].sort();

function assertAccess(u: DirectoryUser | null, roles: readonly string[], permissions: readonly string[]): asserts u is DirectoryUser {
  assert.ok(u, 'expected a user');
  assert.deepEqual(sorted(u.roles), sorted(roles), `roles of ${u.username}`);
  assert.deepEqual(sorted(u.permissions), sorted(permissions), `permissions of ${u.username}`);
}

export function describeUserDirectoryContract(name: string, make: MakeDirectory): void {
  describe(`UserDirectory contract: ${name}`, () => {
    let under: DirectoryUnderTest;
    let dir: UserDirectory;
    beforeEach(async () => {
      under = await make(FIXTURE);
      dir = under.directory;
    });
    afterEach(async () => under?.close?.());

    it('"not found" is null, never an error', async () => {
      assert.equal(await dir.findByUsername('ghost'), null);
      assert.equal(await dir.findById('999999'), null);
      assert.equal(await dir.findById('not-an-id'), null);
      assert.equal(await dir.findById(''), null);
      assert.equal(await dir.findByUsername("' OR '1'='1"), null);
    });

    it('returns the account fields, the hash and a string id', async () => {
      const u = await dir.findByUsername('root');
      assert.ok(u);
      assert.equal(typeof u.id, 'string');
      assert.equal(u.username, 'root');
      assert.equal(u.nickname, 'Root');
      assert.equal(u.avatar, 'https://example.test/root.png');
      assert.equal(u.passwordHash, HASH);
      assert.equal(u.enabled, true);
      assert.equal((await dir.findByUsername('ann'))?.avatar, '', 'no avatar is the empty string');
    });

    it('findById finds the same user as findByUsername', async () => {
      const byName = await dir.findByUsername('ann');
      assert.ok(byName);
      assert.deepEqual(await dir.findById(byName.id), byName);
    });

    it('role admin holds *:*:*', async () => {
      assertAccess(await dir.findByUsername('root'), ['admin'], ['*:*:*']);
    });

    it('permissions are the distinct union over the roles', async () => {
      assertAccess(await dir.findByUsername('ann'), ['viewer', 'auditor'], ['system:user:list', 'monitor:online:list', 'monitor:log:list']);
    });

    it('a disabled role contributes neither its key nor its permissions', async () => {
      assertAccess(await dir.findByUsername('dan'), ['viewer'], ['system:user:list', 'monitor:online:list']);
    });

    it('a disabled user is returned, marked disabled (the login rejects it)', async () => {
      const u = await dir.findByUsername('off');
      assert.ok(u);
      assert.equal(u.enabled, false);
    });

    it('a user without roles has no permissions', async () => {
      assertAccess(await dir.findByUsername('nobody'), [], []);
    });

    it('create adds a user with the roles given', async () => {
      const r = await dir.create({ username: 'newbie', nickname: 'New', passwordHash: HASH, roles: ['auditor', 'editor'] });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.user.enabled, true);
      assert.equal(r.user.avatar, '');
      assertAccess(r.user, ['auditor', 'editor'], ['monitor:online:list', 'monitor:log:list', 'system:user:edit']);
      assert.deepEqual(await dir.findByUsername('newbie'), r.user);
      assert.deepEqual(await dir.findById(r.user.id), r.user);
    });

    it('create with a taken username is a value and changes nothing', async () => {
      const before = await dir.list(0, 100);
      const r = await dir.create({ username: 'ann', nickname: 'Other Ann', passwordHash: HASH, roles: ['admin'] });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, 'username-taken');
      assert.deepEqual(await dir.list(0, 100), before);
    });

    it('findByUsername matches the folded name (NFKC, then lower case) and returns the stored spelling', async () => {
      for (const asked of ['ANN', 'Ann', 'aNN', '\uFF21\uFF4E\uFF4E' /* fullwidth Ａｎｎ */]) {
        const u = await dir.findByUsername(asked);
        assert.equal(u?.username, 'ann', asked);
        assert.deepEqual(u, await dir.findByUsername('ann'), asked);
      }
      assert.equal(await dir.findByUsername('ann '), null, 'a trailing space is another name');
      assert.equal(await dir.findByUsername('an'), null);
    });

    it('create refuses a name that differs from a taken one only in case or Unicode form, and changes nothing', async () => {
      const before = await dir.list(0, 100);
      for (const username of ['ANN', 'Root', '\uFF41\uFF4E\uFF4E' /* fullwidth ａｎｎ */]) {
        const r = await dir.create({ username, nickname: 'Twin', passwordHash: HASH, roles: [] });
        assert.equal(!r.ok && r.reason, 'username-taken', username);
      }
      assert.deepEqual(await dir.list(0, 100), before);
    });

    it('create keeps the spelling given; any case finds it, and it blocks every other case', async () => {
      const r = await dir.create({ username: 'MixedCase', nickname: 'M', passwordHash: HASH, roles: [] });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.user.username, 'MixedCase');
      assert.deepEqual(await dir.findByUsername('mixedcase'), r.user);
      assert.deepEqual(await dir.findByUsername('MIXEDCASE'), r.user);
      assert.ok((await dir.list(0, 100)).users.some((u) => u.username === 'MixedCase'));
      const twin = await dir.create({ username: 'mixedCASE', nickname: 'M2', passwordHash: HASH, roles: [] });
      assert.equal(!twin.ok && twin.reason, 'username-taken');
    });

    it('create with an unknown role writes nothing (no half-written user)', async () => {
      const r = await dir.create({ username: 'halfway', nickname: 'H', passwordHash: HASH, roles: ['viewer', 'no-such-role'] });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, 'unknown-role');
      assert.equal(await dir.findByUsername('halfway'), null);
      assert.equal((await dir.list(0, 100)).total, FIXTURE.users.length);
    });

    it('list pages through every user in id order', async () => {
      const all = await dir.list(0, 100);
      assert.equal(all.total, FIXTURE.users.length);
      assert.deepEqual(
        all.users.map((u) => u.username),
        FIXTURE.users.map((u) => u.username),
      );
      const ids = all.users.map((u) => u.id);
      assert.equal(new Set(ids).size, ids.length, 'ids are unique');
      const page = await dir.list(1, 2);
      assert.equal(page.total, FIXTURE.users.length);
      assert.deepEqual(
        page.users.map((u) => u.username),
        ['ann', 'dan'],
      );
      assert.deepEqual((await dir.list(50, 10)).users, []);
      const ann = all.users.find((u) => u.username === 'ann');
      assertAccess(ann ?? null, ['viewer', 'auditor'], ['system:user:list', 'monitor:online:list', 'monitor:log:list']);
    });
  });
}

export function describeUserAdministrationContract(name: string, make: MakeDirectory): void {
  describe(`UserAdministration contract: ${name}`, () => {
    let under: DirectoryUnderTest;
    let dir: UserDirectory;
    let admin: UserAdministration;
    const idOf = async (username: string) => {
      const u = await dir.findByUsername(username);
      assert.ok(u);
      return u.id;
    };
    beforeEach(async () => {
      under = await make(FIXTURE);
      dir = under.directory;
      assert.ok(under.administration, `${name} has no UserAdministration`);
      admin = under.administration;
    });
    afterEach(async () => under?.close?.());

    it('rolePermissions: what the roles could grant, a disabled role included; admin is *:*:*; [] grants nothing', async () => {
      const r = await admin.rolePermissions(['viewer', 'editor', 'retired', 'viewer']);
      assert.ok(r.ok);
      assert.deepEqual(sorted(r.permissions), ['monitor:online:list', 'system:user:edit', 'system:user:list', 'system:user:remove']);
      const all = await admin.rolePermissions(['viewer', 'admin']);
      assert.ok(all.ok);
      assert.deepEqual(all.permissions, ['*:*:*']);
      const none = await admin.rolePermissions([]);
      assert.ok(none.ok);
      assert.deepEqual(none.permissions, []);
    });

    it('assignedRoles: every role key of the user, a disabled one included; [] without roles; null for no such user', async () => {
      assert.deepEqual(sorted((await admin.assignedRoles(await idOf('dan'))) ?? []), ['retired', 'viewer']);
      assert.deepEqual(await admin.assignedRoles(await idOf('nobody')), []);
      for (const id of ['999999', 'x', '']) assert.equal(await admin.assignedRoles(id), null, id);
    });

    it('rolePermissions names the keys that are no role', async () => {
      const r = await admin.rolePermissions(['viewer', 'no-such-role']);
      assert.equal(!r.ok && r.reason, 'unknown-role');
      assert.match(!r.ok ? r.detail : '', /no-such-role/);
    });

    it('setRoles replaces the roles; the next lookup sees the new permissions', async () => {
      const id = await idOf('ann');
      const r = await admin.setRoles(id, ['editor']);
      assert.ok(r.ok);
      assertAccess(r.user, ['editor'], ['system:user:edit']);
      assertAccess(await dir.findByUsername('ann'), ['editor'], ['system:user:edit']);
    });

    it('setRoles ignores duplicates, accepts [] and a disabled role (which grants nothing)', async () => {
      const id = await idOf('ann');
      const r1 = await admin.setRoles(id, ['viewer', 'viewer', 'retired']);
      assert.ok(r1.ok);
      assertAccess(r1.user, ['viewer'], ['system:user:list', 'monitor:online:list']);
      const r2 = await admin.setRoles(id, []);
      assert.ok(r2.ok);
      assertAccess(r2.user, [], []);
    });

    it('setRoles to admin grants *:*:*', async () => {
      const r = await admin.setRoles(await idOf('nobody'), ['admin']);
      assert.ok(r.ok);
      assertAccess(r.user, ['admin'], ['*:*:*']);
    });

    it('setRoles with an unknown role changes nothing', async () => {
      const id = await idOf('ann');
      const before = await dir.findById(id);
      const r = await admin.setRoles(id, ['editor', 'no-such-role']);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.reason, 'unknown-role');
      assert.match(!r.ok ? r.detail : '', /no-such-role/);
      assert.deepEqual(await dir.findById(id), before);
    });

    it('an unknown or malformed user id is user-not-found', async () => {
      for (const id of ['999999', 'x', '']) {
        const a = await admin.setRoles(id, ['viewer']);
        assert.equal(!a.ok && a.reason, 'user-not-found', id);
        const b = await admin.setEnabled(id, false);
        assert.equal(!b.ok && b.reason, 'user-not-found', id);
      }
    });

    it('setEnabled disables and re-enables an account', async () => {
      const id = await idOf('ann');
      const off = await admin.setEnabled(id, false);
      assert.ok(off.ok);
      assert.equal(off.user.enabled, false);
      assert.equal((await dir.findById(id))?.enabled, false);
      const on = await admin.setEnabled(id, true);
      assert.ok(on.ok);
      assert.equal(on.user.enabled, true);
      assertAccess(on.user, ['viewer', 'auditor'], ['system:user:list', 'monitor:online:list', 'monitor:log:list']);
    });
  });
}
