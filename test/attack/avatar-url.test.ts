/**
 * Attack: `PUT /system/user/{id}` takes an avatar that is empty, an http(s) URL or "a path on the SPA's own origin
 * (`/…`, not `//…`)". A path starting `/\` passes, and browsers read `/\evil.example/a.png` as `//evil.example/a.png`
 * (a backslash is a slash in http URLs), so every administrator who opens the user list fetches from the attacker's
 * host (a tracking pixel that sees each viewer's address and when they look). Quotes and angle brackets pass too,
 * which no image URL needs and which break out of an attribute a front end writes without escaping.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('attack: an avatar that leaves the origin or the attribute', function () {
  this.timeout(60_000);
  let t: AccessApp | undefined;
  afterEach(async () => t?.dispose());

  it('PUT /system/user/:id: /\\host, a backslash, a quote or < > is 400 at /avatar, nothing written', async () => {
    t = await accessApp('file', 'memory');
    const http = () => request((t as AccessApp).app.app.callback());
    const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
    const ann = await t.userId('ann');
    for (const avatar of [
      '/\\evil.example/a.png',
      '/\\\\evil.example/a.png',
      '/img\\..\\a.png',
      'https://img.example/a.png"onerror="alert(1)',
      "/a.png'onerror='alert(1)",
      'https://img.example/<script>',
    ]) {
      const res = await http().put(`/system/user/${ann}`).set(admin).send({ avatar });
      assert.equal(res.status, 400, `${avatar}: ${res.text}`);
      assert.equal(res.body.errors?.[0]?.pointer, '/avatar', avatar);
    }
    const now = await http().get(`/system/user/${ann}`).set(admin).expect(200);
    assert.equal(now.body.data.avatar, '');
    for (const avatar of ['https://img.example/a.png?s=64&d=x', '/avatars/ann.png', ''])
      await http().put(`/system/user/${ann}`).set(admin).send({ avatar }).expect(200);
  });
});
