/**
 * Attack (SQL directory): a role is given to a user while another administrator deletes it. The grant reads the
 * role's id, the deletion counts the role's users (none yet) and deletes it, then the grant's INSERT into
 * sys_user_role fails its foreign key: the answer is 503 directory-unavailable ("try again shortly", logged as a
 * directory failure) although the directory is fine and a retry can only be 400. Either the grant wins (the deletion
 * is then 409 role-in-use) or the deletion wins (the grant is 400, an unknown role); never a 5xx.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { accessApp, type AccessApp } from '../support/access-apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

describe('attack: granting a role while it is deleted (sql directory)', function () {
  this.timeout(120_000);
  let db: ScratchDatabase | undefined;
  let t: AccessApp | undefined;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('a28race');
  });
  afterEach(async () => t?.dispose());
  after(async () => db?.drop());

  it('POST /system/user/:id/roles racing DELETE /system/role/:id: 200 and 409, or 400 and 200', async () => {
    t = await accessApp('sql', 'memory', db);
    const http = () => request((t as AccessApp).app.app.callback());
    const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
    const ann = await t.userId('ann');
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 80; i++) {
      const created = await http()
        .post('/system/role')
        .set(admin)
        .send({ key: `race${i}`, name: 'Race' })
        .expect(201);
      const [grant, removal] = await Promise.all([
        http()
          .post(`/system/user/${ann}/roles`)
          .set(admin)
          .send({ roles: ['viewer', `race${i}`] }),
        http().delete(`/system/role/${created.body.data.id}`).set(admin),
      ]);
      const pair = `${grant.status}/${removal.status}`;
      outcomes.set(pair, (outcomes.get(pair) ?? 0) + 1);
      assert.ok(['200/409', '400/200'].includes(pair), `grant ${grant.status} ${grant.text} / removal ${removal.status} ${removal.text}`);
      await http()
        .post(`/system/user/${ann}/roles`)
        .set(admin)
        .send({ roles: ['viewer'] });
      if (removal.status === 409) await http().delete(`/system/role/${created.body.data.id}`).set(admin).expect(200);
    }
  });
});
