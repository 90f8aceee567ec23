/**
 * Attack: vue-router keeps one route per name, and `addRoute` with a name already taken removes the earlier route.
 * A menu administrator (system:menu:add, no step-up, no delegation: a new menu grants nothing) adds a page named
 * `SystemUser` (or one whose path derives that name, `/system/user`) with no permission, so it is in every
 * administrator's `GET /auth/routes`: in the SPA it replaces the real Users page with whatever view it names. A route
 * name (given or derived) already used by another directory or page should be refused, 400 at /name.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('attack: a page that takes the route name of another', function () {
  this.timeout(60_000);
  let t: AccessApp | undefined;
  afterEach(async () => t?.dispose());

  it('POST and PUT /system/menu: a taken route name, given or derived from the path, is 400 at /name', async () => {
    t = await accessApp('file', 'memory');
    const http = () => request((t as AccessApp).app.app.callback());
    const mo = { Authorization: `Bearer ${await t.sessionOf('mo')}` };
    const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
    const page = (name: string, path: string) => ({ parentId: null, type: 'C', title: 'Users', name, path, component: 'evil/index' });
    for (const [name, path] of [
      ['SystemUser', '/elsewhere'],
      ['', '/system/user'],
      ['System', '/other'],
    ] as const) {
      const res = await http().post('/system/menu').set(mo).send(page(name, path));
      assert.equal(res.status, 400, `${name || path}: ${res.text}`);
      assert.equal(res.body.errors?.[0]?.pointer, '/name', name || path);
    }
    const names = JSON.stringify((await http().get('/auth/routes').set(admin).expect(200)).body.data).match(/"name":"SystemUser"/g);
    assert.equal(names?.length, 1, 'one route named SystemUser');
    const own = await http().post('/system/menu').set(mo).send(page('MonitorJob', '/monitor/job')).expect(201);
    await http().put(`/system/menu/${own.body.data.id}`).set(mo).send(page('MonitorJob', '/monitor/jobs')).expect(200);
    const taken = await http().put(`/system/menu/${own.body.data.id}`).set(mo).send(page('MonitorOnline', '/monitor/jobs'));
    assert.equal(taken.status, 400, taken.text);
  });
});
