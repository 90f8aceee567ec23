/**
 * Attack (spoofing): a role administrator adds a role keyed `Admin` (or `ADMIN`, `Viewer`) beside `admin`. Nothing it
 * grants is more than the caller holds, but every list, `GET /auth/me` and the login answer then show a user "holding
 * Admin", a look-alike of the super-admin role that a reader (or a front end comparing keys without case) takes for
 * it. Usernames already refuse such look-alikes (409 username-taken, `Viewer` beside `viewer`); a role key that
 * differs from a taken one only by case should be refused as taken too (409 role-key-taken).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp, type DirectoryKind } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

for (const kind of ['file', 'sql'] as DirectoryKind[]) {
  describe(`attack: a role key differing from a taken one only by case (${kind} directory)`, function () {
    this.timeout(60_000);
    let db: ScratchDatabase | undefined;
    let t: AccessApp | undefined;
    before(async function () {
      if (kind === 'sql') {
        await requireMariaDb(this);
        db = await ScratchDatabase.create('a28rolekey');
      }
    });
    afterEach(async () => t?.dispose());
    after(async () => db?.drop());

    it('POST /system/role {key: Admin | ADMIN | Viewer}: 409 role-key-taken, nothing written', async () => {
      t = await accessApp(kind, 'memory', db);
      const http = () => request((t as AccessApp).app.app.callback());
      const ro = { Authorization: `Bearer ${await t.sessionOf('ro')}` };
      const before = (await http().get('/system/role').set(ro).expect(200)).body.data.total;
      for (const key of ['Admin', 'ADMIN', 'Viewer']) {
        const res = await http().post('/system/role').set(ro).send({ key, name: 'Administrator' });
        assert.equal(res.status, 409, `${key}: ${res.text}`);
        assert.equal(res.body.code, 40930, key);
      }
      assert.equal((await http().get('/system/role').set(ro).expect(200)).body.data.total, before);
      await http().post('/system/role').set(ro).send({ key: 'admins', name: 'Not the super admin' }).expect(201);
    });
  });
}
