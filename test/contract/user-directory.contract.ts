/**
 * One contract for the UserDirectory port (and the UserAdministration and AccountStore ports where an
 * adapter has them), run against every adapter: each test gets a fresh directory holding the fixture below.
 * Arrays of roles and permissions are compared as sets (order is not part of the contract).
 */
import assert from 'node:assert/strict';
import type { AccountStore } from '../../src/application/ports/account-store';
import type { UserAdministration } from '../../src/application/ports/user-administration';
import { accountActive, type DirectoryUser, type UserDirectory } from '../../src/application/ports/user-directory';

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
  /** The same accounts' AccountStore (the directory object itself, in every adapter so far). */
  readonly accounts?: AccountStore;
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
      }
    });

    it('disabling and re-enabling an account (AccountStore.setStatus) keeps its roles and permissions', async () => {
      assert.ok(under.accounts, `${name} has no AccountStore`);
      const id = await idOf('ann');
      const off = await under.accounts.setStatus(id, { enabled: false, reason: null, until: null });
      assert.equal(off?.enabled, false);
      assert.equal((await dir.findById(id))?.enabled, false);
      const on = await under.accounts.setStatus(id, { enabled: true });
      assert.equal(on?.enabled, true);
      assertAccess(on, ['viewer', 'auditor'], ['system:user:list', 'monitor:online:list', 'monitor:log:list']);
    });
  });
}

/** Members: the same accounts without roles (the web app's directories hold none). */
export const MEMBER_FIXTURE: DirectoryFixture = {
  roles: [],
  users: FIXTURE.users.map((u) => ({ ...u, roles: [] })),
};

/** Another carried-only hash, `n` telling them apart. */
export const hashNo = (n: number): string => `${HASH.slice(0, -2)}${String(n).padStart(2, '0')}`;

const UNKNOWN_IDS = ['999999', 'x', ''];

/**
 * The AccountStore contract (passwords and their history, account state, e-mail), for admin and
 * member directories alike: `make` gets `fixture` (FIXTURE for admins, MEMBER_FIXTURE for members).
 */
export function describeAccountStoreContract(name: string, make: MakeDirectory, fixture: DirectoryFixture = FIXTURE): void {
  describe(`AccountStore contract: ${name}`, () => {
    let under: DirectoryUnderTest;
    let dir: UserDirectory;
    let accounts: AccountStore;
    const idOf = async (username: string) => {
      const u = await dir.findByUsername(username);
      assert.ok(u, username);
      return u.id;
    };
    beforeEach(async () => {
      under = await make(fixture);
      dir = under.directory;
      assert.ok(under.accounts, `${name} has no AccountStore`);
      accounts = under.accounts;
    });
    afterEach(async () => under?.close?.());

    it('an account starts without state: no reason, no end, no mark, no e-mail; every view shows the same', async () => {
      const ann = await dir.findByUsername('ann');
      assert.ok(ann);
      assert.deepEqual(
        [ann.disabledReason, ann.disabledUntil, ann.mustChangePassword, ann.email, ann.emailVerified],
        [null, null, false, null, false],
      );
      assert.deepEqual(await dir.findById(ann.id), ann);
      assert.deepEqual(
        (await dir.list(0, 100)).users.find((u) => u.id === ann.id),
        ann,
      );
      const r = await dir.create({ username: 'fresh', nickname: 'F', passwordHash: HASH, roles: [] });
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(
        [r.user.disabledReason, r.user.disabledUntil, r.user.mustChangePassword, r.user.email, r.user.emailVerified],
        [null, null, false, null, false],
      );
      assert.deepEqual(await accounts.passwordHistory(r.user.id, 10), []);
    });

    it('an unknown or malformed user id: null, [], user-not-found, false; nothing is written', async () => {
      const before = await dir.list(0, 100);
      for (const id of UNKNOWN_IDS) {
        assert.equal(await accounts.setPassword(id, { passwordHash: hashNo(1), mustChange: true, keepHistory: 3 }), null, id);
        assert.deepEqual(await accounts.passwordHistory(id, 5), [], id);
        assert.equal(await accounts.setStatus(id, { enabled: false, reason: 'x', until: null }), null, id);
        assert.equal(await accounts.setStatus(id, { enabled: true }), null, id);
        assert.deepEqual(await accounts.setEmail(id, 'ghost@example.test', false), { ok: false, reason: 'user-not-found' }, id);
        assert.equal(await accounts.markEmailVerified(id, 'ghost@example.test'), false, id);
      }
      assert.equal(await accounts.findByEmail('ghost@example.test'), null);
      assert.deepEqual(await dir.list(0, 100), before);
    });

    it('setPassword replaces the hash: the next lookup (a login) sees the new one; other accounts keep theirs', async () => {
      const id = await idOf('ann');
      const u = await accounts.setPassword(id, { passwordHash: hashNo(2), mustChange: false, keepHistory: 3 });
      assert.ok(u);
      assert.equal(u.passwordHash, hashNo(2));
      assert.deepEqual(await dir.findByUsername('ann'), u);
      assert.deepEqual(await dir.findById(id), u);
      assert.equal((await dir.findByUsername('dan'))?.passwordHash, HASH);
      assert.deepEqual(await accounts.passwordHistory(id, 10), [HASH]);
      assert.deepEqual(await accounts.passwordHistory(await idOf('dan'), 10), []);
    });

    it('the history is newest first, trimmed to keepHistory, and read up to the limit asked', async () => {
      const id = await idOf('ann');
      for (const n of [2, 3, 4, 5]) await accounts.setPassword(id, { passwordHash: hashNo(n), mustChange: false, keepHistory: 3 });
      assert.equal((await dir.findById(id))?.passwordHash, hashNo(5));
      assert.deepEqual(await accounts.passwordHistory(id, 10), [hashNo(4), hashNo(3), hashNo(2)], 'the original hash was trimmed');
      assert.deepEqual(await accounts.passwordHistory(id, 2), [hashNo(4), hashNo(3)]);
      assert.deepEqual(await accounts.passwordHistory(id, 0), []);
      await accounts.setPassword(id, { passwordHash: hashNo(6), mustChange: false, keepHistory: 1 });
      assert.deepEqual(await accounts.passwordHistory(id, 10), [hashNo(5)], 'a smaller keepHistory trims what was kept before');
    });

    it('keepHistory 0 keeps no earlier hash (and drops what was kept)', async () => {
      const id = await idOf('ann');
      await accounts.setPassword(id, { passwordHash: hashNo(2), mustChange: false, keepHistory: 5 });
      const u = await accounts.setPassword(id, { passwordHash: hashNo(3), mustChange: false, keepHistory: 0 });
      assert.equal(u?.passwordHash, hashNo(3));
      assert.deepEqual(await accounts.passwordHistory(id, 10), []);
    });

    it('setPassword sets the "must change" mark (an administrator\'s reset) and clears it (the user\'s own change)', async () => {
      const id = await idOf('ann');
      const reset = await accounts.setPassword(id, { passwordHash: hashNo(2), mustChange: true, keepHistory: 0 });
      assert.equal(reset?.mustChangePassword, true);
      assert.equal((await dir.findByUsername('ann'))?.mustChangePassword, true);
      assert.equal((await dir.findByUsername('dan'))?.mustChangePassword, false);
      const own = await accounts.setPassword(id, { passwordHash: hashNo(3), mustChange: false, keepHistory: 0 });
      assert.equal(own?.mustChangePassword, false);
      assert.equal((await dir.findById(id))?.mustChangePassword, false);
    });

    it('setStatus disables with a reason and an end (a timed ban lifts itself at the end); enabling clears both', async () => {
      const id = await idOf('ann');
      const until = Date.UTC(2031, 4, 6, 7, 8, 9, 123);
      const off = await accounts.setStatus(id, { enabled: false, reason: 'abusive posts', until });
      assert.ok(off);
      assert.deepEqual([off.enabled, off.disabledReason, off.disabledUntil], [false, 'abusive posts', until]);
      assert.deepEqual(await dir.findByUsername('ann'), off);
      assert.equal(accountActive(off, until - 1), false, 'banned before the end');
      assert.equal(accountActive(off, until), true, 'lifted at the end');
      assert.equal(accountActive(off, until + 86_400_000), true);
      const on = await accounts.setStatus(id, { enabled: true });
      assert.ok(on);
      assert.deepEqual([on.enabled, on.disabledReason, on.disabledUntil], [true, null, null]);
      assert.deepEqual(await dir.findById(id), on);
      assert.equal(accountActive(on, until - 1), true);
    });

    it('setStatus disables without a reason or an end: disabled until enabled again', async () => {
      const id = await idOf('nobody');
      const off = await accounts.setStatus(id, { enabled: false, reason: null, until: null });
      assert.ok(off);
      assert.deepEqual([off.enabled, off.disabledReason, off.disabledUntil], [false, null, null]);
      assert.equal(accountActive(off, Date.UTC(9000, 0, 1)), false);
      assert.equal((await dir.findByUsername('nobody'))?.enabled, false);
      const again = await accounts.setStatus(id, { enabled: false, reason: 'second thoughts', until: null });
      assert.equal(again?.disabledReason, 'second thoughts');
      assert.equal((await accounts.setStatus(await idOf('off'), { enabled: true }))?.enabled, true, 'a disabled account is enabled');
      if (fixture.roles.length > 0) {
        assert.deepEqual(sorted((await dir.findByUsername('ann'))?.roles ?? []), ['auditor', 'viewer'], 'roles are untouched');
      }
    });

    it('setEmail sets the address (unverified unless asked); findByEmail finds it whatever its case, trimmed', async () => {
      const id = await idOf('ann');
      const r = await accounts.setEmail(id, 'Ann.Smith@Example.TEST', false);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual([r.user.email, r.user.emailVerified], ['Ann.Smith@Example.TEST', false]);
      assert.deepEqual(await dir.findByUsername('ann'), r.user);
      for (const asked of ['ann.smith@example.test', 'ANN.SMITH@EXAMPLE.TEST', '  Ann.Smith@Example.TEST ']) {
        assert.deepEqual(await accounts.findByEmail(asked), r.user, asked);
      }
      assert.equal(await accounts.findByEmail('ann.smith@example.tes'), null);
      assert.equal(await accounts.findByEmail('other@example.test'), null);
      assert.equal(await accounts.findByEmail(''), null);
      const verified = await accounts.setEmail(await idOf('dan'), 'dan@example.test', true);
      assert.ok(verified.ok);
      assert.equal(verified.user.emailVerified, true);
    });

    it('setEmail: an address another account holds (any case) is email-taken and changes nothing; the own may change case', async () => {
      const [ann, dan] = [await idOf('ann'), await idOf('dan')];
      assert.ok((await accounts.setEmail(ann, 'shared@example.test', true)).ok);
      const danBefore = await dir.findById(dan);
      for (const email of ['shared@example.test', 'SHARED@Example.Test', ' shared@example.test']) {
        assert.deepEqual(await accounts.setEmail(dan, email, false), { ok: false, reason: 'email-taken' }, email);
      }
      assert.deepEqual(await dir.findById(dan), danBefore);
      assert.equal((await accounts.findByEmail('shared@example.test'))?.id, ann);
      const respelt = await accounts.setEmail(ann, 'Shared@Example.test', false);
      assert.ok(respelt.ok, 'its own address again, in another case');
      assert.deepEqual([respelt.user.email, respelt.user.emailVerified], ['Shared@Example.test', false]);
      assert.ok((await accounts.setEmail(ann, 'ann@example.test', false)).ok);
      const freed = await accounts.setEmail(dan, 'shared@example.test', false);
      assert.ok(freed.ok, 'a replaced address is free again');
      assert.equal((await accounts.findByEmail('SHARED@example.test'))?.id, dan);
      assert.equal((await accounts.findByEmail('ann@example.test'))?.id, ann);
    });

    it('create with an e-mail address: unverified, found by it; a taken one (any case) is email-taken and writes nothing', async () => {
      const r = await dir.create({ username: 'withmail', nickname: 'W', passwordHash: HASH, roles: [], email: 'With.Mail@Example.test' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual([r.user.email, r.user.emailVerified], ['With.Mail@Example.test', false]);
      assert.deepEqual(await accounts.findByEmail('with.mail@example.test'), r.user);
      const before = await dir.list(0, 100);
      const twin = await dir.create({
        username: 'twinmail',
        nickname: 'T',
        passwordHash: HASH,
        roles: [],
        email: 'WITH.MAIL@example.TEST',
      });
      assert.equal(!twin.ok && twin.reason, 'email-taken');
      assert.equal(await dir.findByUsername('twinmail'), null);
      assert.deepEqual(await dir.list(0, 100), before);
      const nameTaken = await dir.create({ username: 'ann', nickname: 'A', passwordHash: HASH, roles: [], email: 'fresh@example.test' });
      assert.equal(!nameTaken.ok && nameTaken.reason, 'username-taken');
      assert.equal(await accounts.findByEmail('fresh@example.test'), null);
      const second = await dir.create({ username: 'nomail', nickname: 'N', passwordHash: HASH, roles: [] });
      assert.ok(second.ok, 'accounts without an address do not clash with each other');
    });

    it('10 concurrent setEmail and create with one address (in different cases): exactly one wins', async () => {
      const ids = await Promise.all(fixture.users.slice(0, 5).map((u) => idOf(u.username)));
      const address = (i: number) => (i % 2 === 0 ? 'race@example.test' : 'RACE@Example.Test');
      const results = await Promise.all([
        ...ids.map((id, i) => accounts.setEmail(id, address(i), false)),
        ...[0, 1, 2, 3, 4].map((i) =>
          dir.create({ username: `racer${i}`, nickname: 'R', passwordHash: HASH, roles: [], email: address(i + 1) }),
        ),
      ]);
      const winners = results.filter((r) => r.ok);
      assert.equal(winners.length, 1, JSON.stringify(results.map((r) => (r.ok ? r.user.username : r.reason))));
      for (const r of results) if (!r.ok) assert.equal(r.reason, 'email-taken');
      const winner = winners[0];
      assert.ok(winner?.ok);
      assert.equal((await accounts.findByEmail('race@example.test'))?.id, winner.user.id);
      const created = (await dir.list(0, 100)).users.filter((u) => u.username.startsWith('racer'));
      assert.ok(created.length <= 1, 'a losing create writes nothing');
    });

    it("markEmailVerified marks the address only while it is still the account's (compared case-insensitively)", async () => {
      const id = await idOf('ann');
      assert.equal(await accounts.markEmailVerified(id, 'ann@example.test'), false, 'no address yet');
      await accounts.setEmail(id, 'Ann@Example.test', false);
      assert.equal(await accounts.markEmailVerified(await idOf('dan'), 'ann@example.test'), false, "another account's address");
      assert.equal(await accounts.markEmailVerified(id, 'other@example.test'), false);
      assert.equal((await dir.findById(id))?.emailVerified, false);
      assert.equal(await accounts.markEmailVerified(id, ' ANN@example.TEST'), true);
      assert.equal((await dir.findByUsername('ann'))?.emailVerified, true);
      assert.equal(await accounts.markEmailVerified(id, 'ann@example.test'), true, 'already verified: still true');
      await accounts.setEmail(id, 'changed@example.test', false);
      assert.equal(await accounts.markEmailVerified(id, 'ann@example.test'), false, 'the code was sent to the old address');
      const u = await dir.findById(id);
      assert.deepEqual([u?.email, u?.emailVerified], ['changed@example.test', false]);
    });
  });
}
