/**
 * One contract for the RoleAdministration port, run against every adapter (the embedded directory, from objects and
 * from its YAML files, and MariaDB): listing and filtering, a role's menus and permissions, writes that are values
 * (a taken key, an unknown menu, a role still held: nothing is half-written), and what a change of a role's menus or
 * status does to the permissions a login reads.
 */
import assert from 'node:assert/strict';
import type { RoleFields } from '../../src/application/ports/role-administration';
import { ACCESS_FIXTURE, type AccessUnderTest, type MakeAccess } from './access-fixture';

const FIELDS: RoleFields = { name: 'Auditor', orderNum: 9, enabled: true, remark: 'reads the logs' };

export function describeRoleAdministrationContract(name: string, make: MakeAccess): void {
  describe(`RoleAdministration contract: ${name}`, () => {
    let t: AccessUnderTest;
    beforeEach(async () => {
      t = await make(ACCESS_FIXTURE);
    });
    afterEach(async () => t?.close?.());

    const keys = (roles: readonly { key: string }[]) => roles.map((r) => r.key);
    const access = async (username: string) => {
      const u = await t.directory.findByUsername(username);
      assert.ok(u, username);
      return { roles: [...u.roles].sort(), permissions: [...u.permissions].sort() };
    };
    const menuIds = (...names: string[]) => names.map((n) => t.menuId(n)).sort((a, b) => Number(a) - Number(b));
    const sortedIds = (ids: readonly string[]) => [...ids].sort((a, b) => Number(a) - Number(b));

    it('lists the roles by order number, paged, with the total', async () => {
      const all = await t.roles.listRoles({}, 0, 100);
      assert.equal(all.total, ACCESS_FIXTURE.roles.length);
      assert.deepEqual(keys(all.roles), keys(ACCESS_FIXTURE.roles));
      const page = await t.roles.listRoles({}, 1, 2);
      assert.equal(page.total, ACCESS_FIXTURE.roles.length);
      assert.deepEqual(keys(page.roles), ['viewer', 'editor']);
      assert.deepEqual((await t.roles.listRoles({}, 50, 10)).roles, []);
    });

    it('filters by part of the key or name (any case) and by status', async () => {
      assert.deepEqual(keys((await t.roles.listRoles({ key: 'EDIT' }, 0, 10)).roles), ['editor']);
      assert.deepEqual(keys((await t.roles.listRoles({ name: 'role' }, 0, 10)).roles), ['spare']);
      const disabled = await t.roles.listRoles({ enabled: false }, 0, 10);
      assert.deepEqual([disabled.total, keys(disabled.roles)], [1, ['dormant']]);
      assert.equal((await t.roles.listRoles({ key: 'e', enabled: true }, 0, 10)).total, 3);
      assert.equal((await t.roles.listRoles({ key: '%' }, 0, 10)).total, 0, 'a LIKE wildcard is a plain character');
    });

    it("a role's fields, menus and permissions (disabled menus included; admin: *:*:*)", async () => {
      const viewer = await t.roles.findRole(t.roleId('viewer'));
      assert.ok(viewer);
      assert.deepEqual(
        { ...viewer, menuIds: sortedIds(viewer.menuIds), permissions: [...viewer.permissions].sort() },
        {
          id: t.roleId('viewer'),
          key: 'viewer',
          name: 'Viewer',
          orderNum: 2,
          enabled: true,
          remark: '',
          menuIds: menuIds('users', 'online'),
          permissions: ['monitor:online:list', 'system:user:list'],
        },
      );
      assert.ok((await t.roles.findRole(t.roleId('editor')))?.permissions.includes('monitor:old:list'));
      assert.deepEqual((await t.roles.findRole(t.roleId('dormant')))?.permissions, ['system:role:list']);
      assert.deepEqual((await t.roles.findRole(t.roleId('admin')))?.permissions, ['*:*:*']);
      for (const id of ['999999', 'x', '']) assert.equal(await t.roles.findRole(id), null, id);
    });

    it('creates a role with menus; a taken key or an unknown menu writes nothing', async () => {
      const r = await t.roles.createRole('auditor', FIELDS, [t.menuId('online'), t.menuId('online')]);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(
        { ...r.role, id: '' },
        { ...FIELDS, id: '', key: 'auditor', menuIds: [t.menuId('online')], permissions: ['monitor:online:list'] },
      );
      assert.deepEqual(await t.roles.findRole(r.role.id), r.role);
      const taken = await t.roles.createRole('viewer', FIELDS, []);
      assert.equal(!taken.ok && taken.reason, 'role-key-taken');
      const unknown = await t.roles.createRole('ghost', FIELDS, [t.menuId('online'), '999999']);
      assert.equal(!unknown.ok && unknown.reason, 'unknown-menu');
      assert.equal((await t.roles.listRoles({ key: 'ghost' }, 0, 10)).total, 0);
    });

    it('updates name, order, status and remark; an unknown role is role-not-found', async () => {
      const id = t.roleId('spare');
      const r = await t.roles.updateRole(id, { name: 'Renamed', orderNum: 0, enabled: false, remark: 'x' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(await t.roles.findRole(id), { ...r.role, key: 'spare' });
      assert.deepEqual(keys((await t.roles.listRoles({}, 0, 1)).roles), ['spare'], 'order 0 comes first');
      for (const unknown of ['999999', 'x']) {
        const u = await t.roles.updateRole(unknown, FIELDS);
        assert.equal(!u.ok && u.reason, 'role-not-found');
      }
    });

    it("disabling a role takes its key and permissions from its holders' logins; enabling gives them back", async () => {
      const viewer = await t.roles.findRole(t.roleId('viewer'));
      assert.ok(viewer);
      assert.ok((await t.roles.updateRole(viewer.id, { ...viewer, enabled: false })).ok);
      assert.deepEqual(await access('dan'), { roles: [], permissions: [] });
      assert.ok((await t.roles.updateRole(viewer.id, { ...viewer, enabled: true })).ok);
      assert.deepEqual(await access('dan'), { roles: ['viewer'], permissions: ['monitor:online:list', 'system:user:list'] });
    });

    it("replaces a role's menus; its holders' logins read the new permissions", async () => {
      const r = await t.roles.setRoleMenus(t.roleId('viewer'), [t.menuId('roles'), t.menuId('online')]);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(sortedIds(r.role.menuIds), menuIds('roles', 'online'));
      assert.deepEqual(await access('dan'), { roles: ['viewer'], permissions: ['monitor:online:list', 'system:role:list'] });
      assert.ok((await t.roles.setRoleMenus(t.roleId('viewer'), [])).ok);
      assert.deepEqual(await access('dan'), { roles: ['viewer'], permissions: [] });
    });

    it('setRoleMenus with an unknown menu or role changes nothing', async () => {
      const before = await t.roles.findRole(t.roleId('viewer'));
      const r = await t.roles.setRoleMenus(t.roleId('viewer'), [t.menuId('roles'), '999999', 'x']);
      assert.equal(!r.ok && r.reason, 'unknown-menu');
      assert.match(!r.ok ? r.detail : '', /999999/);
      assert.deepEqual(await t.roles.findRole(t.roleId('viewer')), before);
      const none = await t.roles.setRoleMenus('999999', []);
      assert.equal(!none.ok && none.reason, 'role-not-found');
    });

    it('removes a role nobody holds; refuses while a user holds it (even a disabled role)', async () => {
      for (const key of ['viewer', 'dormant']) {
        const r = await t.roles.removeRole(t.roleId(key));
        assert.equal(!r.ok && r.reason, 'role-in-use', key);
      }
      assert.ok(await t.roles.findRole(t.roleId('dormant')));
      const r = await t.roles.removeRole(t.roleId('spare'));
      assert.ok(r.ok);
      assert.equal(r.role.key, 'spare');
      assert.equal(await t.roles.findRole(t.roleId('spare')), null);
      const again = await t.roles.removeRole(t.roleId('spare'));
      assert.equal(!again.ok && again.reason, 'role-not-found');
      const created = await t.roles.createRole('spare', FIELDS, []);
      assert.ok(created.ok, 'the key is free again');
    });

    it('usersOfRole: every user the role is assigned to, a disabled role too', async () => {
      assert.deepEqual(sortedIds(await t.roles.usersOfRole(t.roleId('viewer'))), sortedIds([t.userId('ann'), t.userId('dan')]));
      assert.deepEqual(await t.roles.usersOfRole(t.roleId('dormant')), [t.userId('dan')]);
      assert.deepEqual(await t.roles.usersOfRole(t.roleId('spare')), []);
      assert.deepEqual(await t.roles.usersOfRole('999999'), []);
    });
  });
}
