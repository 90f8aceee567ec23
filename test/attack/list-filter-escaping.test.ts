/**
 * Outside check: the input filter (svc.xss.enabled, on by default) HTML-escapes every query value before a handler
 * sees it. The new list filters search the stored text with what they get, so a role named `R&D` (role names are free
 * text) is not found by `GET /system/role?name=R%26D` (the handler searches for `R&amp;D`), nor `Bob's` by
 * `?name=Bob's`: an administrator's search for an existing role answers an empty page.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('attack: a list filter with &, quotes or < > finds nothing', function () {
  this.timeout(60_000);
  let t: AccessApp | undefined;
  afterEach(async () => t?.dispose());

  it("GET /system/role?name=R%26D finds the role named R&D (and Bob's)", async () => {
    t = await accessApp('file', 'memory');
    const http = () => request((t as AccessApp).app.app.callback());
    const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
    for (const [key, name] of [
      ['rnd', 'R&D'],
      ['bobs', "Bob's team"],
    ])
      await http().post('/system/role').set(admin).send({ key, name }).expect(201);
    for (const [part, key] of [
      ['R&D', 'rnd'],
      ["Bob's", 'bobs'],
    ]) {
      const res = await http().get('/system/role').query({ name: part }).set(admin).expect(200);
      assert.deepEqual(
        res.body.data.list.map((r: { key: string }) => r.key),
        [key],
        `?name=${part}`,
      );
    }
  });
});
