/**
 * The record half of the UserAdministration contract (the filtered listing, profile edits,
 * deletion), run against every adapter with a writable admin directory: the in-memory reference,
 * the embedded file directory and MariaDB. Fresh directory per test, holding FIXTURE.
 */
import assert from 'node:assert/strict';
import type { UserAdministration, UserQuery } from '../../src/application/ports/user-administration';
import type { UserDirectory } from '../../src/application/ports/user-directory';
import { FIXTURE, HASH, type DirectoryUnderTest, type MakeDirectory } from './user-directory.contract';

export function describeUserRecordsContract(name: string, make: MakeDirectory): void {
  describe(`UserAdministration records contract: ${name}`, () => {
    let under: DirectoryUnderTest;
    let dir: UserDirectory;
    let admin: UserAdministration;
    const idOf = async (username: string) => {
      const u = await dir.findByUsername(username);
      assert.ok(u, username);
      return u.id;
    };
    const names = async (q: Partial<UserQuery>) => {
      const r = await admin.findUsers({ offset: 0, limit: 100, ...q });
      return { total: r.total, names: r.users.map((u) => u.username) };
    };
    beforeEach(async () => {
      under = await make(FIXTURE);
      dir = under.directory;
      assert.ok(under.administration, `${name} has no UserAdministration`);
      admin = under.administration;
    });
    afterEach(async () => under?.close?.());

    it('findUsers without a filter: every account in id order, as list() shows them', async () => {
      const all = await admin.findUsers({ offset: 0, limit: 100 });
      assert.deepEqual(all, await dir.list(0, 100));
      assert.deepEqual(
        all.users.map((u) => u.username),
        FIXTURE.users.map((u) => u.username),
      );
    });

    it('findUsers pages: total counts every match, the page holds `limit` from `offset`', async () => {
      const page = await admin.findUsers({ offset: 1, limit: 2 });
      assert.equal(page.total, FIXTURE.users.length);
      assert.deepEqual(
        page.users.map((u) => u.username),
        ['ann', 'dan'],
      );
      const past = await admin.findUsers({ offset: 50, limit: 10 });
      assert.deepEqual([past.total, past.users], [FIXTURE.users.length, []]);
      const filteredPage = await admin.findUsers({ role: 'viewer', offset: 1, limit: 1 });
      assert.deepEqual([filteredPage.total, filteredPage.users.map((u) => u.username)], [3, ['dan']]);
    });

    it('findUsers by username: a part of the name, any case or Unicode width; pattern characters are literal', async () => {
      assert.deepEqual(await names({ username: 'an' }), { total: 2, names: ['ann', 'dan'] });
      assert.deepEqual(await names({ username: 'AN' }), { total: 2, names: ['ann', 'dan'] });
      assert.deepEqual(await names({ username: '\uFF2F\uFF26' /* fullwidth ＯＦ */ }), { total: 1, names: ['off'] });
      assert.deepEqual(await names({ username: 'ghost' }), { total: 0, names: [] });
      for (const literal of ['%', '_', 'a%n', 'a_n', '!', "'"])
        assert.deepEqual(await names({ username: literal }), { total: 0, names: [] }, literal);
    });

    it('findUsers by status (the flag) and by role (assigned, a disabled role included); filters combine', async () => {
      assert.deepEqual(await names({ status: 'disabled' }), { total: 1, names: ['off'] });
      assert.deepEqual(await names({ status: 'enabled' }), { total: 4, names: ['root', 'ann', 'dan', 'nobody'] });
      assert.deepEqual(await names({ role: 'viewer' }), { total: 3, names: ['ann', 'dan', 'off'] });
      assert.deepEqual(await names({ role: 'retired' }), { total: 1, names: ['dan'] }, 'a disabled role still finds its holders');
      assert.deepEqual(await names({ role: 'no-such-role' }), { total: 0, names: [] });
      assert.deepEqual(await names({ role: 'viewer', status: 'enabled', username: 'N' }), { total: 2, names: ['ann', 'dan'] });
    });

    it('updateProfile changes the fields given and keeps the others; every lookup sees it', async () => {
      const id = await idOf('ann');
      const r = await admin.updateProfile(id, { nickname: 'Annie', avatar: '/avatars/ann.png', phone: '+1 555 0100' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(
        [r.user.nickname, r.user.avatar, r.user.phone, r.user.email, r.user.username],
        ['Annie', '/avatars/ann.png', '+1 555 0100', null, 'ann'],
      );
      assert.deepEqual(await dir.findById(id), r.user);
      assert.deepEqual(await dir.findByUsername('ann'), r.user);
      const nick = await admin.updateProfile(id, { nickname: 'Ann again' });
      assert.ok(nick.ok);
      assert.deepEqual([nick.user.avatar, nick.user.phone], ['/avatars/ann.png', '+1 555 0100'], 'absent fields are kept');
      const cleared = await admin.updateProfile(id, { phone: null });
      assert.ok(cleared.ok);
      assert.equal(cleared.user.phone, null);
      assert.deepEqual([...cleared.user.roles].sort(), ['auditor', 'viewer'], 'roles are untouched');
      assert.equal((await dir.findByUsername('dan'))?.nickname, 'Dan', 'other accounts are untouched');
    });

    it('updateProfile e-mail: a new address is unverified, the same one respelt keeps its mark, null clears it', async () => {
      const id = await idOf('ann');
      assert.ok(under.accounts);
      assert.ok((await under.accounts.setEmail(id, 'ann@example.test', true)).ok);
      const respelt = await admin.updateProfile(id, { email: 'Ann@Example.TEST' });
      assert.ok(respelt.ok);
      assert.deepEqual([respelt.user.email, respelt.user.emailVerified], ['Ann@Example.TEST', true]);
      const moved = await admin.updateProfile(id, { email: 'annie@example.test' });
      assert.ok(moved.ok);
      assert.deepEqual([moved.user.email, moved.user.emailVerified], ['annie@example.test', false]);
      assert.equal((await under.accounts.findByEmail('ann@example.test'))?.id, undefined, 'the old address is free');
      assert.equal((await under.accounts.findByEmail('ANNIE@example.test'))?.id, id);
      const none = await admin.updateProfile(id, { email: null });
      assert.ok(none.ok);
      assert.deepEqual([none.user.email, none.user.emailVerified], [null, false]);
      assert.equal(await under.accounts.findByEmail('annie@example.test'), null);
    });

    it("updateProfile with another account's address (any case) is email-taken and changes nothing", async () => {
      assert.ok(under.accounts);
      const [ann, dan] = [await idOf('ann'), await idOf('dan')];
      assert.ok((await under.accounts.setEmail(dan, 'dan@example.test', false)).ok);
      const before = await dir.findById(ann);
      const r = await admin.updateProfile(ann, { nickname: 'Changed', email: 'DAN@example.test' });
      assert.equal(!r.ok && r.reason, 'email-taken');
      assert.deepEqual(await dir.findById(ann), before, 'not even the nickname changed');
    });

    it('updateProfile of an unknown or malformed id is user-not-found', async () => {
      for (const id of ['999999', 'x', '']) {
        const r = await admin.updateProfile(id, { nickname: 'Ghost' });
        assert.equal(!r.ok && r.reason, 'user-not-found', id);
      }
    });

    it('deleteUser removes the account (returned as it was) and nothing else; a second delete is null', async () => {
      const id = await idOf('ann');
      const before = await dir.findById(id);
      assert.deepEqual(await admin.deleteUser(id), before);
      assert.equal(await dir.findById(id), null);
      assert.equal(await dir.findByUsername('ann'), null);
      assert.equal(await admin.assignedRoles(id), null);
      assert.equal((await dir.list(0, 100)).total, FIXTURE.users.length - 1);
      assert.deepEqual(await names({ role: 'viewer' }), { total: 2, names: ['dan', 'off'] });
      assert.equal(await admin.deleteUser(id), null);
      for (const unknown of ['999999', 'x', '']) assert.equal(await admin.deleteUser(unknown), null, unknown);
      assert.deepEqual([...((await dir.findByUsername('dan'))?.roles ?? [])].sort(), ['viewer']);
    });

    it("deleteUser frees the name and the address, and a new account never gets the deleted one's id", async () => {
      assert.ok(under.accounts);
      const last = (await dir.list(0, 100)).users.at(-1);
      assert.ok(last);
      assert.ok((await under.accounts.setEmail(last.id, 'last@example.test', false)).ok);
      await admin.deleteUser(last.id);
      const again = await dir.create({
        username: last.username,
        nickname: 'New',
        passwordHash: HASH,
        roles: [],
        email: 'last@example.test',
      });
      assert.ok(again.ok, JSON.stringify(again));
      assert.notEqual(again.user.id, last.id);
      assert.ok(Number(again.user.id) > Number(last.id), `${again.user.id} after ${last.id}`);
    });
  });
}
