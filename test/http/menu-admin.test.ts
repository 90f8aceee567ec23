/**
 * Menu administration over HTTP (`/system/menu`), on the file directory and on MariaDB: the tree, one menu, adding,
 * replacing and deleting; a cycle or a bad parent is 400, a menu with children or held by a role 409, an unknown one
 * 404, a caller without the permission 403, without a session 401. A change reaches the SPA's routes at once, and a
 * change of a held button's permission the live sessions of its users; the caller must hold what it edits.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp, type DirectoryKind } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const page = (parentId: string | null) => ({
  parentId,
  type: 'C',
  title: 'Jobs',
  name: 'MonitorJob',
  path: '/monitor/job',
  component: 'monitor/job/index',
  icon: 'ri:timer-line',
  orderNum: 9,
  permission: 'monitor:job:list',
});

for (const kind of ['file', 'sql'] as DirectoryKind[]) {
  describe(`menu administration over HTTP (${kind} directory)`, function () {
    let db: ScratchDatabase | undefined;
    let t: AccessApp;
    before(async function () {
      if (kind === 'sql') {
        await requireMariaDb(this);
        db = await ScratchDatabase.create('menuadmin');
      }
    });
    beforeEach(async () => {
      t = await accessApp(kind, 'memory', db);
    });
    afterEach(async () => t?.dispose());
    after(async () => db?.drop());

    const http = () => request(t.app.app.callback());
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

    it('GET /system/menu: the whole tree, buttons and all; 403 without system:menu:list, 401 without a session', async () => {
      const res = await http()
        .get('/system/menu')
        .set(auth(await t.sessionOf('mo')))
        .expect(200);
      assert.deepEqual(
        res.body.data.map((m: { title: string }) => m.title),
        ['System', 'Monitor'],
      );
      const users = res.body.data[0].children[0];
      assert.equal(users.type, 'C');
      assert.deepEqual(
        users.children.map((b: { permission: string }) => b.permission),
        [
          'system:user:query',
          'system:user:add',
          'system:user:edit',
          'system:user:remove',
          'system:user:resetPwd',
          'system:user:unlock',
          'system:user:resetMfa',
        ],
      );
      assert.equal((await http().get('/system/menu').expect(401)).body.code, 40100);
      assert.equal(
        (
          await http()
            .get('/system/menu')
            .set(auth(await t.sessionOf('viewer')))
            .expect(403)
        ).body.code,
        40300,
      );
    });

    it('GET /system/menu/:id: one menu; 404 for an unknown one', async () => {
      const id = await t.menuId('system:user:list');
      const res = await http()
        .get(`/system/menu/${id}`)
        .set(auth(await t.sessionOf('mo')))
        .expect(200);
      assert.equal(res.body.data.name, 'SystemUser');
      assert.equal(res.body.data.id, id);
      for (const unknown of ['999999', 'x'])
        assert.equal(
          (
            await http()
              .get(`/system/menu/${unknown}`)
              .set(auth(await t.sessionOf('mo')))
              .expect(404)
          ).body.code,
          40411,
        );
      await http().get(`/system/menu/${id}`).expect(401);
      await http()
        .get(`/system/menu/${id}`)
        .set(auth(await t.sessionOf('viewer')))
        .expect(403);
    });

    it('POST /system/menu: 201, and the SPA routes show it at once', async () => {
      const admin = await t.sessionOf('admin');
      const monitor = await t.menuId('/monitor');
      const before = await http().get('/auth/routes').set(auth(admin)).expect(200);
      const res = await http()
        .post('/system/menu')
        .set(auth(await t.sessionOf('mo')))
        .send(page(monitor))
        .expect(201);
      assert.equal(res.body.data.parentId, monitor);
      assert.equal(res.body.data.enabled, true);
      const after = await http().get('/auth/routes').set(auth(admin)).set('If-None-Match', String(before.headers.etag)).expect(200);
      assert.ok(after.body.data[1].children.some((r: { path: string }) => r.path === '/monitor/job'));
    });

    it('POST /system/menu: a bad body, an unknown parent or a button as parent is 400, and nothing is written', async () => {
      const mo = await t.sessionOf('mo');
      const button = await t.menuId('system:user:add');
      const bad = [
        { ...page(null), type: 'F' },
        { ...page(null), type: 'M' },
        { ...page(null), path: '' },
        { ...page(null), permission: 'not a permission' },
        { ...page(null), extra: 1 },
        { ...page(null), parentId: 'x' },
        { ...page(null), parentId: '999999' },
        page(button),
      ];
      for (const body of bad) {
        const res = await http().post('/system/menu').set(auth(mo)).send(body).expect(400);
        assert.equal(res.body.code, 40000, JSON.stringify(body));
      }
      const tree = await http().get('/system/menu').set(auth(mo)).expect(200);
      assert.ok(!JSON.stringify(tree.body.data).includes('/monitor/job'));
      await http().post('/system/menu').send(page(null)).expect(401);
      await http()
        .post('/system/menu')
        .set(auth(await t.sessionOf('viewer')))
        .send(page(null))
        .expect(403);
    });

    it('PUT /system/menu/:id: a cycle is 400, an unknown menu 404; a stale login 403 step-up-required', async () => {
      const system = await t.menuId('/system');
      const users = await t.menuId('system:user:list');
      const admin = await t.sessionOf('admin');
      const current = (await http().get(`/system/menu/${system}`).set(auth(admin)).expect(200)).body.data;
      const { id: _id, ...fields } = current;
      for (const parentId of [system, users]) {
        const res = await http()
          .put(`/system/menu/${system}`)
          .set(auth(admin))
          .send({ ...fields, parentId })
          .expect(400);
        assert.match(res.body.message, /cycle/);
        assert.equal(res.body.errors[0].pointer, '/parentId');
      }
      assert.equal((await http().put('/system/menu/999999').set(auth(admin)).send(fields).expect(404)).body.code, 40411);
      const stale = await http()
        .put(`/system/menu/${system}`)
        .set(auth(await t.staleSessionOf('admin')))
        .send(fields)
        .expect(403);
      assert.equal(stale.body.code, 40305);
      await http().put(`/system/menu/${system}`).send(fields).expect(401);
      await http()
        .put(`/system/menu/${system}`)
        .set(auth(await t.sessionOf('viewer')))
        .send(fields)
        .expect(403);
      const moved = await http()
        .put(`/system/menu/${users}`)
        .set(auth(admin))
        .send({ ...fields, type: 'C', path: '/monitor/user', component: 'system/user/index', parentId: await t.menuId('/monitor') })
        .expect(200);
      assert.equal(moved.body.data.menu.path, '/monitor/user');
    });

    it("PUT: a held button's new permission reaches its users' sessions at once; the caller must hold it (403)", async () => {
      const add = await t.menuId('system:user:add');
      const ed = await t.sessionOf('ed');
      const body = {
        parentId: await t.menuId('system:user:list'),
        type: 'F',
        title: 'Create user',
        orderNum: 2,
        permission: 'system:user:create',
      };
      const denied = await http()
        .put(`/system/menu/${add}`)
        .set(auth(await t.sessionOf('mo')))
        .send(body)
        .expect(403);
      assert.equal(denied.body.code, 40302, 'mo holds neither system:user:add nor system:user:create');
      const res = await http()
        .put(`/system/menu/${add}`)
        .set(auth(await t.sessionOf('admin')))
        .send(body)
        .expect(200);
      assert.deepEqual([res.body.data.sessionsUpdated, res.body.data.sessionsEnded], [1, 0]);
      const me = await http().get('/auth/me').set(auth(ed)).expect(200);
      assert.ok(me.body.data.permissions.includes('system:user:create'));
      assert.ok(!me.body.data.permissions.includes('system:user:add'));
      const routes = await http().get('/auth/routes').set(auth(ed)).expect(200);
      assert.deepEqual(routes.body.data[0].children[0].meta.auths, ['system:user:query', 'system:user:create', 'system:user:edit']);
    });

    it('DELETE /system/menu/:id: 409 with children or held by a role, 404 unknown, else gone', async () => {
      const mo = await t.sessionOf('mo');
      assert.equal(
        (
          await http()
            .delete(`/system/menu/${await t.menuId('/system')}`)
            .set(auth(mo))
            .expect(409)
        ).body.code,
        40932,
      );
      const held = await http()
        .delete(`/system/menu/${await t.menuId('system:user:add')}`)
        .set(auth(mo))
        .expect(409);
      assert.equal(held.body.code, 40933);
      assert.match(held.body.message, /editor/);
      assert.equal((await http().delete('/system/menu/999999').set(auth(mo)).expect(404)).body.code, 40411);
      const unlocked = await t.menuId('system:user:unlock');
      const res = await http().delete(`/system/menu/${unlocked}`).set(auth(mo)).expect(200);
      assert.deepEqual(res.body.data, { id: unlocked, deleted: true });
      await http().get(`/system/menu/${unlocked}`).set(auth(mo)).expect(404);
      await http().delete(`/system/menu/${unlocked}`).expect(401);
      await http()
        .delete(`/system/menu/${unlocked}`)
        .set(auth(await t.sessionOf('viewer')))
        .expect(403);
    });
  });
}
