/**
 * POST /system/user/:id/kickout over HTTP, on the file directory (memory store) and MariaDB (Redis
 * store): every login of the account ends (sessions, refresh tokens) and it may log in again;
 * monitor:online:forceLogout alone decides (no delegation: it takes nothing from the account);
 * its 401/403/404 and the operation log.
 */
import assert from 'node:assert/strict';
import { HASH, type DirectoryFixture } from '../contract/user-directory.contract';
import { userAdminKit, userAdminSetups, type UserAdminSetup } from '../support/user-admin-setups';

const FIXTURE: DirectoryFixture = {
  roles: [
    { key: 'admin', enabled: true, permissions: ['*:*:*'] },
    { key: 'operator', enabled: true, permissions: ['monitor:online:list', 'monitor:online:forceLogout'] },
    { key: 'lister', enabled: true, permissions: ['system:user:list', 'monitor:online:list'] },
  ],
  users: [
    { username: 'root', nickname: 'Root', passwordHash: HASH, enabled: true, roles: ['admin'] },
    { username: 'op', nickname: 'Operator', passwordHash: HASH, enabled: true, roles: ['operator'] },
    { username: 'ann', nickname: 'Ann', passwordHash: HASH, enabled: true, roles: ['lister'] },
  ],
};

for (const [name, setup] of Object.entries(userAdminSetups(FIXTURE, 'userkickout'))) {
  describe(`POST /system/user/:id/kickout (${name})`, function () {
    this.timeout(30_000);
    let s: UserAdminSetup;
    beforeEach(async function () {
      s = await setup(this);
    });
    afterEach(async () => s?.close());
    const k = userAdminKit(() => s);
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const kick = (id: string, token?: string) => {
      const req = k.http().post(`/system/user/${id}/kickout`);
      return token === undefined ? req : req.set(as(token));
    };

    it('ends every session and refresh token of the user; the account stays and logs in again; logged as user.kickout', async () => {
      const [a, b, pair] = [await k.tokenOf('ann'), await k.tokenOf('ann'), await k.pairOf('ann')];
      const other = await k.tokenOf('root');
      const r = await kick(k.id('ann'), await k.tokenOf('op')).expect(200);
      assert.deepEqual(r.body.data, { userId: k.id('ann'), username: 'ann', sessionsEnded: 3 });
      for (const t of [a, b, pair.accessToken]) assert.equal((await k.http().get('/auth/me').set(as(t)).expect(401)).body.code, 40105);
      await k.http().post('/auth/refresh-token').send({ refreshToken: pair.refreshToken }).expect(401);
      await k.http().get('/auth/me').set(as(other)).expect(200);
      assert.equal((await k.directory().findByUsername('ann'))?.enabled, true, 'the account is untouched');
      await k
        .http()
        .get('/auth/me')
        .set(as(await k.tokenOf('ann')))
        .expect(200);
      const again = await kick(k.id('ann'), await k.tokenOf('op')).expect(200);
      assert.equal(again.body.data.sessionsEnded, 1, 'the new login');
      const ops = await k.operations(other, 'user.kickout');
      assert.deepEqual(
        ops.map((o) => [o.actor, o.target]),
        [
          ['op', k.id('ann')],
          ['op', k.id('ann')],
        ],
      );
    });

    it('{deviceType}: only the logins of that device type end; the others and the account stay', async () => {
      const [app1, app2, pc] = [
        await k.tokenOf('ann', { deviceType: 'APP' }),
        await k.tokenOf('ann', { deviceType: 'APP' }),
        await k.tokenOf('ann', { deviceType: 'PC' }),
      ];
      const op = await k.tokenOf('op');
      const r = await k
        .http()
        .post(`/system/user/${k.id('ann')}/kickout`)
        .set(as(op))
        .send({ deviceType: 'APP' })
        .expect(200);
      assert.deepEqual(r.body.data, { userId: k.id('ann'), username: 'ann', sessionsEnded: 2 });
      for (const t of [app1, app2]) assert.equal((await k.http().get('/auth/me').set(as(t)).expect(401)).body.code, 40105);
      await k.http().get('/auth/me').set(as(pc)).expect(200);
      const ops = await k.operations(await k.tokenOf('root'), 'user.kickout');
      assert.deepEqual(
        ops.map((o) => o.summary),
        ['deviceType=APP'],
      );
      const bad = await k
        .http()
        .post(`/system/user/${k.id('ann')}/kickout`)
        .set(as(op))
        .send({ deviceType: 'A P P' })
        .expect(400);
      assert.equal(bad.body.code, 40000);
      await k.http().get('/auth/me').set(as(pc)).expect(200);
    });

    it('needs monitor:online:forceLogout only: an operator kicks out even a super admin (who may log in again)', async () => {
      const root = await k.tokenOf('root');
      assert.equal((await kick(k.id('root'), await k.tokenOf('op')).expect(200)).body.data.sessionsEnded, 1);
      assert.equal((await k.http().get('/auth/me').set(as(root)).expect(401)).body.code, 40105);
    });

    it('refuses: 401 without a token, 403 without the permission, 403 on oneself, 404 for an unknown user', async () => {
      const ann = await k.tokenOf('ann');
      await kick(k.id('ann')).expect(401);
      assert.equal((await kick(k.id('root'), ann).expect(403)).body.code, 40300);
      const op = await k.tokenOf('op');
      const self = await kick(k.id('op'), op).expect(403);
      assert.equal(self.body.code, 40302);
      assert.match(self.body.message, /log out/);
      assert.equal((await kick('999999', op).expect(404)).body.code, 40401);
      await k.http().get('/auth/me').set(as(ann)).expect(200);
      await k.http().get('/auth/me').set(as(op)).expect(200);
    });
  });
}
