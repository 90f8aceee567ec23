/**
 * Attack: a menu's `path` is what the SPA hands to vue-router (`addRoute`) and links in its menu, for every
 * administrator the menu is open to (a menu with no permission: all of them). `POST /system/menu` (system:menu:add,
 * no step-up) takes any text: `javascript:...`, a path with no leading `/` (vue-router throws on it, and the SPA's
 * whole route setup with it), white space, quotes and angle brackets. The user's avatar is held to a URL or a `/` path;
 * a route path should be too (a `/` path, or an http(s) URL for an external link), else 400 at /path.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('attack: a menu path the SPA cannot route, or a script URL', function () {
  this.timeout(60_000);
  let t: AccessApp | undefined;
  afterEach(async () => t?.dispose());

  it('POST /system/menu and PUT /system/menu/:id: 400 at /path, nothing written; / paths and http(s) links pass', async () => {
    t = await accessApp('file', 'memory');
    const http = () => request((t as AccessApp).app.app.callback());
    const mo = { Authorization: `Bearer ${await t.sessionOf('mo')}` };
    const page = (path: string) => ({ parentId: null, type: 'C', title: 'Page', path, component: 'demo/index' });
    const count = async () => JSON.stringify((await http().get('/system/menu').set(mo).expect(200)).body.data).length;
    const before = await count();
    for (const path of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'system/jobs',
      '//evil.example/x',
      '/\\evil.example/x',
      '/jobs list',
      '/jobs"><img src=x onerror=alert(1)>',
    ]) {
      const res = await http().post('/system/menu').set(mo).send(page(path));
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.body.errors?.[0]?.pointer, '/path', path);
    }
    assert.equal(await count(), before, 'nothing written');
    const ok = await http().post('/system/menu').set(mo).send(page('/monitor/job/:id?')).expect(201);
    await http()
      .post('/system/menu')
      .set(mo)
      .send({ ...page('https://docs.example.com/admin'), component: null, type: 'M' })
      .expect(201);
    const edited = await http().put(`/system/menu/${ok.body.data.id}`).set(mo).send(page('javascript:alert(1)'));
    assert.equal(edited.status, 400, edited.text);
  });
});
