/**
 * `GET /auth/routes` over HTTP, on the file directory and on MariaDB, over the dev menu tree: `admin` (*:*:*) sees
 * everything with every button's permission in `meta.auths`; `viewer` only the pages its permissions open, each
 * directory redirecting to its first page; `ed` the same with the buttons it holds; a conditional request with the
 * ETag is answered 304 without a body; no session, 401.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { AsyncRoute } from '../../src/domain/menu-routes';
import { accessApp, type AccessApp, type DirectoryKind } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

/** The tree as path → [name, component, redirect, auths], depth first: what the SPA gets, compactly. */
function outline(routes: readonly AsyncRoute[]): string[] {
  return routes.flatMap((r) => [
    `${r.path} ${r.name} ${r.component ?? '-'} ${r.redirect ?? '-'} [${r.meta.auths.join(',')}]`,
    ...outline(r.children).map((l) => `  ${l}`),
  ]);
}

const ADMIN_OUTLINE = [
  '/system System - /system/user []',
  '  /system/user SystemUser system/user/index - ' +
    '[system:user:query,system:user:add,system:user:edit,system:user:remove,system:user:resetPwd,system:user:unlock,system:user:resetMfa]',
  '  /system/role SystemRole system/role/index - [system:role:query,system:role:add,system:role:edit,system:role:remove]',
  '  /system/menu SystemMenu system/menu/index - [system:menu:query,system:menu:add,system:menu:edit,system:menu:remove]',
  '/monitor Monitor - /monitor/online []',
  '  /monitor/online MonitorOnline monitor/online/index - [monitor:online:forceLogout]',
  '  /monitor/login-logs MonitorLoginLog monitor/login-logs/index - []',
  '  /monitor/operation-logs MonitorOperationLog monitor/operation-logs/index - []',
];

for (const kind of ['file', 'sql'] as DirectoryKind[]) {
  describe(`GET /auth/routes (${kind} directory)`, function () {
    let db: ScratchDatabase | undefined;
    let t: AccessApp;
    before(async function () {
      if (kind === 'sql') {
        await requireMariaDb(this);
        db = await ScratchDatabase.create('sparoutes');
      }
      t = await accessApp(kind, 'memory', db);
    });
    after(async () => {
      await t?.dispose();
      await db?.drop();
    });

    const routes = (token?: string, etag?: string) => {
      const r = request(t.app.app.callback()).get('/auth/routes');
      if (token !== undefined) r.set('Authorization', `Bearer ${token}`);
      if (etag !== undefined) r.set('If-None-Match', etag);
      return r;
    };

    it('admin (*:*:*) sees every directory and page, each page with all its buttons', async () => {
      const res = await routes(await t.sessionOf('admin')).expect(200);
      assert.equal(res.body.code, 0);
      assert.deepEqual(outline(res.body.data), ADMIN_OUTLINE);
      const users = res.body.data[0].children[0];
      assert.deepEqual(users.meta, {
        title: 'Users',
        icon: 'ri:admin-line',
        rank: 1,
        showLink: true,
        keepAlive: false,
        auths: users.meta.auths,
      });
      assert.equal(res.headers['cache-control'], 'private, no-cache');
      assert.match(res.headers.etag ?? '', /^"[A-Za-z0-9_-]{32}"$/);
    });

    it('viewer sees only the pages its permissions open, with no button', async () => {
      const res = await routes(await t.sessionOf('viewer')).expect(200);
      assert.deepEqual(outline(res.body.data), [
        '/system System - /system/user []',
        '  /system/user SystemUser system/user/index - []',
        '/monitor Monitor - /monitor/online []',
        '  /monitor/online MonitorOnline monitor/online/index - []',
      ]);
    });

    it("a page's auths are the permissions of its buttons the caller holds", async () => {
      const res = await routes(await t.sessionOf('ed')).expect(200);
      assert.deepEqual(outline(res.body.data), [
        '/system System - /system/user []',
        '  /system/user SystemUser system/user/index - [system:user:query,system:user:add,system:user:edit]',
        '/monitor Monitor - /monitor/online []',
        '  /monitor/online MonitorOnline monitor/online/index - []',
      ]);
    });

    it('a conditional request with the current ETag is 304 with no body; the same permissions share the ETag', async () => {
      const [viewer, ann] = [await t.sessionOf('viewer'), await t.sessionOf('ann')];
      const first = await routes(viewer).expect(200);
      const etag = first.headers.etag as string;
      const again = await routes(viewer, etag).expect(304);
      assert.equal(again.text, '');
      assert.equal(again.headers.etag, etag);
      await routes(ann, `W/${etag}`).expect(304);
      await routes(viewer, `"other", ${etag}`).expect(304);
      await routes(viewer, '*').expect(304);
      const other = await routes(viewer, '"stale"').expect(200);
      assert.deepEqual(other.body, first.body);
      const admin = await routes(await t.sessionOf('admin'), etag).expect(200);
      assert.notEqual(admin.headers.etag, etag, 'other permissions, another answer');
    });

    it('without a session: 401', async () => {
      const res = await routes().expect(401);
      assert.equal(res.body.code, 40100);
      await routes('not-a-token').expect(401);
    });
  });
}
