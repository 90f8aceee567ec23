/**
 * Role administration over HTTP (`/system/role`), on the file directory and on MariaDB: a role losing a menu, or
 * disabled, while its users are logged in changes their next permission check and their next `GET /auth/routes` at
 * once, no new login (on the in-memory store and on Redis); listing, reading, adding, changing and deleting roles with
 * their 400, 401, 403, 404 and 409; the step-up guard and the delegation rule on changes.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { STORE_KINDS } from '../support/apps';
import { accessApp, type AccessApp, type DirectoryKind } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { requireRedis } from '../support/services';

const paths = (routes: readonly { path: string; children: readonly unknown[] }[]): string[] =>
  routes.flatMap((r) => [r.path, ...paths(r.children as typeof routes)]);

for (const kind of ['file', 'sql'] as DirectoryKind[]) {
  for (const store of STORE_KINDS) {
    describe(`role administration over HTTP (${kind} directory, ${store} store)`, function () {
      let db: ScratchDatabase | undefined;
      let t: AccessApp;
      before(async function () {
        if (store === 'redis') await requireRedis(this);
        if (kind === 'sql') {
          await requireMariaDb(this);
          db = await ScratchDatabase.create('roleadmin');
        }
      });
      beforeEach(async () => {
        t = await accessApp(kind, store, db);
      });
      afterEach(async () => t?.dispose());
      after(async () => db?.drop());

      const http = () => request(t.app.app.callback());
      const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

      it('a role losing a menu, then disabled, changes its logged-in users at once: permission checks and routes', async () => {
        const [ann, admin] = [await t.sessionOf('ann'), await t.sessionOf('admin')];
        const before = await http().get('/auth/routes').set(auth(ann)).expect(200);
        assert.deepEqual(paths(before.body.data), ['/system', '/system/user', '/monitor', '/monitor/online']);
        await http().get('/system/user/list').set(auth(ann)).expect(200);

        const viewer = await t.roleId('viewer');
        const res = await http()
          .put(`/system/role/${viewer}/menus`)
          .set(auth(admin))
          .send({ menuIds: [await t.menuId('monitor:online:list')] })
          .expect(200);
        assert.equal(res.body.data.sessionsUpdated, 1, "ann's one session");
        assert.deepEqual(res.body.data.role.permissions, ['monitor:online:list']);

        assert.equal((await http().get('/system/user/list').set(auth(ann)).expect(403)).body.code, 40300);
        const after = await http().get('/auth/routes').set(auth(ann)).set('If-None-Match', String(before.headers.etag)).expect(200);
        assert.deepEqual(paths(after.body.data), ['/monitor', '/monitor/online']);

        const role = res.body.data.role;
        const off = await http()
          .put(`/system/role/${viewer}`)
          .set(auth(admin))
          .send({ name: role.name, orderNum: role.orderNum, remark: role.remark, enabled: false })
          .expect(200);
        assert.equal(off.body.data.role.enabled, false);
        assert.equal(off.body.data.sessionsUpdated, 1);
        assert.deepEqual((await http().get('/auth/routes').set(auth(ann)).expect(200)).body.data, []);
        const me = await http().get('/auth/me').set(auth(ann)).expect(200);
        assert.deepEqual([me.body.data.roles, me.body.data.permissions], [[], []]);
        await http().get('/monitor/online').set(auth(ann)).expect(403);
      });

      if (store === 'redis') return; // the rest does not depend on the store

      it('GET /system/role: paged, filtered by key, name and status; 401, 403', async () => {
        const ro = await t.sessionOf('ro');
        const all = await http().get('/system/role').set(auth(ro)).expect(200);
        assert.equal(all.body.data.total, 5);
        assert.deepEqual(
          all.body.data.list.map((r: { key: string }) => r.key),
          ['admin', 'viewer', 'editor', 'menuadmin', 'roleadmin'],
        );
        const page = await http().get('/system/role?page=2&pageSize=2').set(auth(ro)).expect(200);
        assert.deepEqual([page.body.data.page, page.body.data.pageSize, page.body.data.list.length], [2, 2, 2]);
        const filtered = await http().get('/system/role?key=ADMIN&enabled=true').set(auth(ro)).expect(200);
        assert.deepEqual(filtered.body.data.list.map((r: { key: string }) => r.key).sort(), ['admin', 'menuadmin', 'roleadmin']);
        assert.equal((await http().get('/system/role?enabled=false').set(auth(ro)).expect(200)).body.data.total, 0);
        await http().get('/system/role?pageSize=0').set(auth(ro)).expect(400);
        await http().get('/system/role?enabled=maybe').set(auth(ro)).expect(400);
        await http().get('/system/role').expect(401);
        assert.equal(
          (
            await http()
              .get('/system/role')
              .set(auth(await t.sessionOf('viewer')))
              .expect(403)
          ).body.code,
          40300,
        );
      });

      it('GET /system/role/:id: the role, its menus and permissions; 404', async () => {
        const ro = await t.sessionOf('ro');
        const res = await http()
          .get(`/system/role/${await t.roleId('viewer')}`)
          .set(auth(ro))
          .expect(200);
        assert.deepEqual([res.body.data.key, res.body.data.menuIds.length], ['viewer', 2]);
        assert.deepEqual([...res.body.data.permissions].sort(), ['monitor:online:list', 'system:user:list']);
        const admin = await http()
          .get(`/system/role/${await t.roleId('admin')}`)
          .set(auth(ro))
          .expect(200);
        assert.deepEqual(admin.body.data.permissions, ['*:*:*']);
        assert.equal((await http().get('/system/role/999999').set(auth(ro)).expect(404)).body.code, 40410);
        await http().get('/system/role/1').expect(401);
        await http()
          .get('/system/role/1')
          .set(auth(await t.sessionOf('viewer')))
          .expect(403);
      });

      it('POST /system/role: 201; a taken key 409; an unknown menu or a bad body 400; more than the caller holds 403', async () => {
        const ro = await t.sessionOf('ro');
        const usersPage = await t.menuId('system:user:list');
        const created = await http()
          .post('/system/role')
          .set(auth(ro))
          .send({ key: 'lister', name: 'Lister', menuIds: [usersPage] })
          .expect(201);
        assert.deepEqual(
          [created.body.data.key, created.body.data.enabled, created.body.data.permissions],
          ['lister', true, ['system:user:list']],
        );
        assert.equal((await http().post('/system/role').set(auth(ro)).send({ key: 'viewer', name: 'Again' }).expect(409)).body.code, 40930);
        const unknown = await http()
          .post('/system/role')
          .set(auth(ro))
          .send({ key: 'ghost', name: 'Ghost', menuIds: ['999999'] })
          .expect(400);
        assert.equal(unknown.body.errors[0].pointer, '/menuIds');
        for (const body of [
          { key: '1bad', name: 'x' },
          { key: 'ok' },
          { key: 'ok', name: 'x', menuIds: 'x' },
          { key: 'ok', name: 'x', id: 3 },
        ])
          await http().post('/system/role').set(auth(ro)).send(body).expect(400);
        const denied = await http()
          .post('/system/role')
          .set(auth(ro))
          .send({ key: 'adder', name: 'Adder', menuIds: [await t.menuId('system:user:add')] })
          .expect(403);
        assert.equal(denied.body.code, 40302);
        assert.match(denied.body.message, /system:user:add/);
        await http().post('/system/role').send({ key: 'x', name: 'x' }).expect(401);
        await http()
          .post('/system/role')
          .set(auth(await t.sessionOf('viewer')))
          .send({ key: 'x', name: 'x' })
          .expect(403);
        assert.equal((await http().get('/system/role?key=ghost').set(auth(ro)).expect(200)).body.data.total, 0);
      });

      it('PUT /system/role/:id: the key never changes, admin is never disabled (400); step-up; delegation; 404', async () => {
        const admin = await t.sessionOf('admin');
        const viewer = await t.roleId('viewer');
        const fields = { name: 'Viewers', orderNum: 2, enabled: true, remark: 'read only' };
        const ok = await http()
          .put(`/system/role/${viewer}`)
          .set(auth(admin))
          .send({ ...fields, key: 'viewer' })
          .expect(200);
        assert.deepEqual([ok.body.data.role.name, ok.body.data.sessionsUpdated], ['Viewers', 0]);
        const renamed = await http()
          .put(`/system/role/${viewer}`)
          .set(auth(admin))
          .send({ ...fields, key: 'watcher' })
          .expect(400);
        assert.equal(renamed.body.errors[0].pointer, '/key');
        const adminRole = await t.roleId('admin');
        const off = await http()
          .put(`/system/role/${adminRole}`)
          .set(auth(admin))
          .send({ ...fields, enabled: false })
          .expect(400);
        assert.equal(off.body.errors[0].pointer, '/enabled');
        const stale = await http()
          .put(`/system/role/${viewer}`)
          .set(auth(await t.staleSessionOf('admin')))
          .send(fields)
          .expect(403);
        assert.equal(stale.body.code, 40305);
        const denied = await http()
          .put(`/system/role/${await t.roleId('editor')}`)
          .set(auth(await t.sessionOf('ro')))
          .send(fields)
          .expect(403);
        assert.equal(denied.body.code, 40302, 'editor grants system:user:add, which ro lacks');
        assert.equal((await http().put('/system/role/999999').set(auth(admin)).send(fields).expect(404)).body.code, 40410);
        await http().put(`/system/role/${viewer}`).set(auth(admin)).send({ name: '' }).expect(400);
        await http().put(`/system/role/${viewer}`).send(fields).expect(401);
        await http()
          .put(`/system/role/${viewer}`)
          .set(auth(await t.sessionOf('viewer')))
          .send(fields)
          .expect(403);
      });

      it('PUT /system/role/:id/menus: an unknown menu 400 (nothing changes); 404; delegation and step-up 403; 401', async () => {
        const [admin, ro] = [await t.sessionOf('admin'), await t.sessionOf('ro')];
        const viewer = await t.roleId('viewer');
        const unknown = await http()
          .put(`/system/role/${viewer}/menus`)
          .set(auth(admin))
          .send({ menuIds: ['999999'] })
          .expect(400);
        assert.equal(unknown.body.errors[0].pointer, '/menuIds');
        assert.equal((await http().get(`/system/role/${viewer}`).set(auth(admin)).expect(200)).body.data.menuIds.length, 2);
        assert.equal((await http().put('/system/role/999999/menus').set(auth(admin)).send({ menuIds: [] }).expect(404)).body.code, 40410);
        const add = await t.menuId('system:user:add');
        assert.equal(
          (
            await http()
              .put(`/system/role/${viewer}/menus`)
              .set(auth(ro))
              .send({ menuIds: [add] })
              .expect(403)
          ).body.code,
          40302,
        );
        const stale = await http()
          .put(`/system/role/${viewer}/menus`)
          .set(auth(await t.staleSessionOf('admin')))
          .send({ menuIds: [] })
          .expect(403);
        assert.equal(stale.body.code, 40305);
        await http().put(`/system/role/${viewer}/menus`).set(auth(admin)).send({ menuIds: 'x' }).expect(400);
        await http().put(`/system/role/${viewer}/menus`).send({ menuIds: [] }).expect(401);
        await http()
          .put(`/system/role/${viewer}/menus`)
          .set(auth(await t.sessionOf('viewer')))
          .send({ menuIds: [] })
          .expect(403);
      });

      it('DELETE /system/role/:id: 409 while users hold it, 404 unknown, delegation 403, else gone', async () => {
        const [admin, ro] = [await t.sessionOf('admin'), await t.sessionOf('ro')];
        assert.equal(
          (
            await http()
              .delete(`/system/role/${await t.roleId('viewer')}`)
              .set(auth(admin))
              .expect(409)
          ).body.code,
          40931,
        );
        assert.equal(
          (
            await http()
              .delete(`/system/role/${await t.roleId('editor')}`)
              .set(auth(ro))
              .expect(403)
          ).body.code,
          40302,
        );
        const created = await http().post('/system/role').set(auth(ro)).send({ key: 'temp', name: 'Temp' }).expect(201);
        const id = created.body.data.id;
        const res = await http().delete(`/system/role/${id}`).set(auth(ro)).expect(200);
        assert.deepEqual(res.body.data, { id, key: 'temp', deleted: true });
        assert.equal((await http().delete(`/system/role/${id}`).set(auth(ro)).expect(404)).body.code, 40410);
        await http().delete(`/system/role/${id}`).expect(401);
        await http()
          .delete(`/system/role/${id}`)
          .set(auth(await t.sessionOf('viewer')))
          .expect(403);
      });
    });
  }
}
