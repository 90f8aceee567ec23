/**
 * One contract for the MenuCatalogue port, run against every adapter (the embedded directory, from objects and from
 * its YAML files, and MariaDB): tree integrity (a parent must exist and not be a button; no cycle), removal refused
 * while the menu has children or a role holds it, and what a change of a menu does to the permissions a login reads.
 */
import assert from 'node:assert/strict';
import { MAX_MENU_DEPTH, type Menu, type MenuFields } from '../../src/domain/menu';
import { ACCESS_FIXTURE, type AccessUnderTest, type MakeAccess } from './access-fixture';

const fieldsOf = (m: Menu): MenuFields => {
  const { id: _id, ...fields } = m;
  return fields;
};

const newPage = (parentId: string | null): MenuFields => ({
  parentId,
  type: 'C',
  title: 'Jobs',
  name: 'MonitorJob',
  path: '/monitor/job',
  component: 'monitor/job/index',
  icon: 'ri:timer-line',
  orderNum: 3,
  visible: false,
  keepAlive: true,
  permission: 'monitor:job:list',
  enabled: true,
});

export function describeMenuCatalogueContract(name: string, make: MakeAccess): void {
  describe(`MenuCatalogue contract: ${name}`, () => {
    let t: AccessUnderTest;
    beforeEach(async () => {
      t = await make(ACCESS_FIXTURE);
    });
    afterEach(async () => t?.close?.());

    const sorted = async () => [...(await t.menus.menus())].sort((a, b) => Number(a.id) - Number(b.id));
    const permissionsOf = async (username: string) => [...((await t.directory.findByUsername(username))?.permissions ?? [])].sort();

    it('lists every menu with its fields and its parent', async () => {
      const all = await t.menus.menus();
      assert.equal(all.length, ACCESS_FIXTURE.menus.length);
      for (const f of ACCESS_FIXTURE.menus) {
        const { key, parent, ...fields } = f;
        const m = all.find((x) => x.id === t.menuId(key));
        assert.deepEqual(m, { ...fields, id: t.menuId(key), parentId: parent === null ? null : t.menuId(parent) }, key);
      }
    });

    it('finds one menu; an unknown or malformed id is null', async () => {
      assert.equal((await t.menus.findMenu(t.menuId('users')))?.title, 'Users');
      for (const id of ['999999', 'x', '', '-1', '0']) assert.equal(await t.menus.findMenu(id), null, id);
    });

    it('creates a menu under a directory or page, or at the top', async () => {
      const r = await t.menus.createMenu(newPage(t.menuId('monitor')));
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.menu, { ...newPage(t.menuId('monitor')), id: r.menu.id });
      assert.deepEqual(await t.menus.findMenu(r.menu.id), r.menu);
      const top = await t.menus.createMenu({ ...newPage(null), type: 'M', component: null, permission: null });
      assert.ok(top.ok);
      assert.equal(top.menu.parentId, null);
      const button = await t.menus.createMenu({ ...newPage(r.menu.id), type: 'F', path: '', permission: 'monitor:job:run' });
      assert.ok(button.ok, 'a button on the new page');
    });

    it('refuses a parent that does not exist or is a button, and writes nothing', async () => {
      const before = await sorted();
      for (const parentId of ['999999', 'nope', t.menuId('user-add')]) {
        const r = await t.menus.createMenu(newPage(parentId));
        assert.equal(!r.ok && r.reason, 'invalid-tree', parentId);
      }
      assert.deepEqual(await sorted(), before);
    });

    it('updates every field of a menu', async () => {
      const id = t.menuId('online');
      const change = { ...newPage(t.menuId('system')), title: 'Sessions', enabled: false };
      const r = await t.menus.updateMenu(id, change);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(await t.menus.findMenu(id), { ...change, id });
    });

    it('refuses a cycle (the menu itself or one below it as parent) and changes nothing', async () => {
      const before = await sorted();
      const system = await t.menus.findMenu(t.menuId('system'));
      assert.ok(system);
      for (const parent of ['system', 'users', 'roles']) {
        const r = await t.menus.updateMenu(system.id, { ...fieldsOf(system), parentId: t.menuId(parent) });
        assert.equal(!r.ok && r.reason, 'invalid-tree', parent);
        assert.match(!r.ok ? r.detail : '', /cycle/);
      }
      assert.deepEqual(await sorted(), before);
    });

    it('refuses a button with children, and a button as parent, on update', async () => {
      const users = await t.menus.findMenu(t.menuId('users'));
      const online = await t.menus.findMenu(t.menuId('online'));
      assert.ok(users && online);
      const asButton = await t.menus.updateMenu(users.id, { ...fieldsOf(users), type: 'F' });
      assert.equal(!asButton.ok && asButton.reason, 'invalid-tree');
      const underButton = await t.menus.updateMenu(online.id, { ...fieldsOf(online), parentId: t.menuId('user-edit') });
      assert.equal(!underButton.ok && underButton.reason, 'invalid-tree');
      assert.deepEqual(await t.menus.findMenu(online.id), online);
    });

    it('moves a subtree under another directory', async () => {
      const users = await t.menus.findMenu(t.menuId('users'));
      assert.ok(users);
      const r = await t.menus.updateMenu(users.id, { ...fieldsOf(users), parentId: t.menuId('monitor') });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal((await t.menus.findMenu(t.menuId('user-add')))?.parentId, users.id, 'its buttons go with it');
    });

    it('refuses a tree deeper than MAX_MENU_DEPTH levels, on create and on a move, and writes nothing', async () => {
      const dir = (parentId: string | null): MenuFields => ({ ...newPage(parentId), type: 'M', component: null, permission: null });
      const chain = async (from: string | null, levels: number): Promise<string[]> => {
        const ids: string[] = [];
        for (let i = 0; i < levels; i++) {
          const r = await t.menus.createMenu(dir(ids.at(-1) ?? from));
          assert.ok(r.ok, `level ${i + 1}: ${JSON.stringify(r)}`);
          ids.push(r.menu.id);
        }
        return ids;
      };
      const deep = await chain(null, MAX_MENU_DEPTH);
      const below = await t.menus.createMenu(dir(deep.at(-1) as string));
      assert.equal(!below.ok && below.reason, 'invalid-tree');
      assert.match(!below.ok ? below.detail : '', /levels deep/);
      const branch = await chain(null, 2);
      const before = await sorted();
      const moved = await t.menus.updateMenu(branch[0] as string, dir(deep.at(-2) as string));
      assert.equal(!moved.ok && moved.reason, 'invalid-tree', 'two levels below level 63');
      assert.deepEqual(await sorted(), before);
      assert.ok((await t.menus.updateMenu(branch[0] as string, dir(deep.at(-3) as string))).ok, 'two levels below level 62');
    });

    it('updating an unknown menu is menu-not-found', async () => {
      for (const id of ['999999', 'x']) {
        const r = await t.menus.updateMenu(id, newPage(null));
        assert.equal(!r.ok && r.reason, 'menu-not-found', id);
      }
    });

    it('removes a menu without children that no role holds', async () => {
      const created = await t.menus.createMenu(newPage(t.menuId('monitor')));
      assert.ok(created.ok);
      assert.deepEqual(await t.menus.removeMenu(created.menu.id), { ok: true });
      assert.equal(await t.menus.findMenu(created.menu.id), null);
    });

    it('refuses to remove a menu with children, or one a role holds, and removes nothing', async () => {
      const before = await sorted();
      const parent = await t.menus.removeMenu(t.menuId('system'));
      assert.equal(!parent.ok && parent.reason, 'menu-has-children');
      const held = await t.menus.removeMenu(t.menuId('user-add'));
      assert.equal(!held.ok && held.reason, 'menu-in-use');
      assert.match(!held.ok ? held.detail : '', /editor/);
      const unknown = await t.menus.removeMenu('999999');
      assert.equal(!unknown.ok && unknown.reason, 'menu-not-found');
      assert.deepEqual(await sorted(), before);
    });

    it('usersOfMenu: the holders of the roles holding the menu', async () => {
      assert.deepEqual([...(await t.menus.usersOfMenu(t.menuId('users')))].sort(), [t.userId('ann'), t.userId('dan')].sort());
      assert.deepEqual(await t.menus.usersOfMenu(t.menuId('user-add')), [t.userId('ann')]);
      assert.deepEqual(await t.menus.usersOfMenu(t.menuId('system')), []);
      assert.deepEqual(await t.menus.usersOfMenu('999999'), []);
    });

    it("a menu's permission and status reach what a login reads; a disabled menu grants nothing", async () => {
      assert.deepEqual(await permissionsOf('ann'), ['monitor:online:list', 'system:user:add', 'system:user:edit', 'system:user:list']);
      const add = await t.menus.findMenu(t.menuId('user-add'));
      const old = await t.menus.findMenu(t.menuId('old'));
      assert.ok(add && old);
      assert.ok((await t.menus.updateMenu(add.id, { ...fieldsOf(add), permission: 'system:user:create' })).ok);
      assert.ok((await t.menus.updateMenu(old.id, { ...fieldsOf(old), enabled: true })).ok);
      const edit = await t.menus.findMenu(t.menuId('user-edit'));
      assert.ok(edit);
      assert.ok((await t.menus.updateMenu(edit.id, { ...fieldsOf(edit), enabled: false })).ok);
      assert.deepEqual(await permissionsOf('ann'), ['monitor:old:list', 'monitor:online:list', 'system:user:create', 'system:user:list']);
    });
  });
}
