/**
 * The account records of user administration over HTTP, on the file directory (memory store) and on
 * MariaDB (Redis store): GET /system/user (paged, filtered), GET /system/user/:id (system:user:query),
 * PUT /system/user/:id (profile, into live sessions at once) and DELETE /system/user/:id (step-up;
 * every login of the account ends), with their 200/400/401/403/404/409 and the operation log.
 */
import assert from 'node:assert/strict';
import { HASH, type DirectoryFixture } from '../contract/user-directory.contract';
import { userAdminKit, userAdminSetups, type UserAdminSetup } from '../support/user-admin-setups';

const FIXTURE: DirectoryFixture = {
  roles: [
    { key: 'admin', enabled: true, permissions: ['*:*:*'] },
    {
      key: 'useradmin',
      enabled: true,
      permissions: ['system:user:list', 'system:user:query', 'system:user:edit', 'system:user:remove', 'monitor:online:forceLogout'],
    },
    { key: 'lister', enabled: true, permissions: ['system:user:list'] },
  ],
  users: [
    { username: 'root', nickname: 'Root', passwordHash: HASH, enabled: true, roles: ['admin'] },
    { username: 'uadmin', nickname: 'User admin', passwordHash: HASH, enabled: true, roles: ['useradmin'] },
    { username: 'ann', nickname: 'Ann', passwordHash: HASH, enabled: true, roles: ['lister'] },
    { username: 'dan', nickname: 'Dan', passwordHash: HASH, enabled: true, roles: ['lister'] },
    { username: 'joanna', nickname: 'Jo', passwordHash: HASH, enabled: false, roles: [] },
  ],
};

for (const [name, setup] of Object.entries(userAdminSetups(FIXTURE, 'userrecords'))) {
  describe(`user records over HTTP (${name})`, function () {
    this.timeout(30_000);
    let s: UserAdminSetup;
    beforeEach(async function () {
      s = await setup(this);
    });
    afterEach(async () => s?.close());
    const k = userAdminKit(() => s);
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });

    it('GET /system/user: paged and filtered by username part, status and role; 400 on a bad filter; 401; 403', async () => {
      const t = await k.tokenOf('ann');
      const get = (query: Record<string, string | number>) => k.http().get('/system/user').query(query).set(as(t));
      const names = (r: { body: { data: { list: Array<{ username: string }> } } }) => r.body.data.list.map((u) => u.username);
      const all = await get({}).expect(200);
      assert.deepEqual([all.body.data.total, all.body.data.page, all.body.data.pageSize], [5, 1, 20]);
      assert.deepEqual(names(await get({ username: 'ANN' }).expect(200)), ['ann', 'joanna']);
      assert.deepEqual(names(await get({ status: 'disabled' }).expect(200)), ['joanna']);
      assert.deepEqual(names(await get({ role: 'lister', pageSize: 1, page: 2 }).expect(200)), ['dan']);
      assert.equal((await get({ role: 'lister', pageSize: 1, page: 2 })).body.data.total, 2);
      assert.deepEqual(names(await get({ role: 'no-such-role' }).expect(200)), []);
      const bads: Array<Record<string, string | number>> = [{ status: 'locked' }, { page: 0 }, { pageSize: 501 }, { username: '' }];
      for (const bad of bads) {
        assert.equal((await get(bad)).status, 400, JSON.stringify(bad));
      }
      await k.http().get('/system/user').expect(401);
      await k
        .http()
        .get('/system/user')
        .set(as(await k.tokenOf('joanna')))
        .expect(403);
    });

    it('GET /system/user/:id needs system:user:query (list is not enough): 200 with contact and state, 403, 404, 401', async () => {
      await k
        .http()
        .get(`/system/user/${k.id('dan')}`)
        .set(as(await k.tokenOf('ann')))
        .expect(403);
      const t = await k.tokenOf('uadmin');
      const r = await k
        .http()
        .get(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .expect(200);
      assert.deepEqual([r.body.data.username, r.body.data.email, r.body.data.phone, r.body.data.lockedUntil], ['dan', null, null, null]);
      // Reads are not limited by delegation: uadmin sees root, whom it cannot change.
      assert.equal(
        (
          await k
            .http()
            .get(`/system/user/${k.id('root')}`)
            .set(as(t))
            .expect(200)
        ).body.data.username,
        'root',
      );
      assert.equal((await k.http().get('/system/user/999999').set(as(t)).expect(404)).body.code, 40401);
      await k
        .http()
        .get(`/system/user/${k.id('dan')}`)
        .expect(401);
    });

    it("PUT /system/user/:id: the profile changes, the user's live sessions show it at once, the log names the fields", async () => {
      const dan = await k.tokenOf('dan');
      const t = await k.tokenOf('uadmin');
      const body = { nickname: 'Daniel', avatar: 'https://cdn.example.com/d.png', email: 'Dan@Example.test', phone: '+44 20 7946 0958' };
      const r = await k
        .http()
        .put(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .send(body)
        .expect(200);
      assert.deepEqual(r.body.data, {
        userId: k.id('dan'),
        username: 'dan',
        nickname: 'Daniel',
        avatar: 'https://cdn.example.com/d.png',
        email: 'Dan@Example.test',
        emailVerified: false,
        phone: '+44 20 7946 0958',
        sessionsUpdated: 1,
      });
      assert.equal((await k.http().get('/auth/me').set(as(dan)).expect(200)).body.data.nickname, 'Daniel');
      const details = (
        await k
          .http()
          .get(`/system/user/${k.id('dan')}`)
          .set(as(t))
          .expect(200)
      ).body.data;
      assert.deepEqual([details.email, details.phone, details.roles], ['Dan@Example.test', '+44 20 7946 0958', ['lister']]);
      const cleared = await k
        .http()
        .put(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .send({ phone: null })
        .expect(200);
      assert.deepEqual([cleared.body.data.phone, cleared.body.data.nickname], [null, 'Daniel']);
      const ops = await k.operations(await k.tokenOf('root'), 'user.update');
      assert.deepEqual(
        ops.map((o) => [o.actor, o.target, o.summary]),
        [
          ['uadmin', k.id('dan'), 'fields=phone'],
          ['uadmin', k.id('dan'), 'fields=nickname,avatar,email,phone'],
        ],
      );
    });

    it('PUT /system/user/:id refuses: 400 bad fields, 401, 403 without edit, 403 delegation and self, 404, 409 taken e-mail', async () => {
      const t = await k.tokenOf('uadmin');
      const put = (id: string, body: object, token = t) => k.http().put(`/system/user/${id}`).set(as(token)).send(body);
      for (const bad of [
        {},
        { nickname: '' },
        { avatar: 'javascript:alert(1)' },
        { avatar: '//evil.example/x.png' },
        { phone: 'call me' },
        { email: 'not-an-address' },
        { email: `${'a'.repeat(190)}@x.io` },
        { roles: ['admin'] },
      ]) {
        const r = await put(k.id('dan'), bad);
        assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
        assert.equal(r.body.code, 40000);
      }
      await k
        .http()
        .put(`/system/user/${k.id('dan')}`)
        .send({ nickname: 'X' })
        .expect(401);
      assert.equal((await put(k.id('dan'), { nickname: 'X' }, await k.tokenOf('ann'))).status, 403);
      const root = await put(k.id('root'), { nickname: 'Owned' });
      assert.deepEqual([root.status, root.body.code], [403, 40302], 'root holds *:*:*, which uadmin does not');
      assert.equal((await put(k.id('uadmin'), { nickname: 'Me' })).body.code, 40302, 'not its own account');
      assert.equal((await put('999999', { nickname: 'Ghost' })).status, 404);
      await put(k.id('ann'), { email: 'shared@example.test' }).expect(200);
      const taken = await put(k.id('dan'), { nickname: 'Not kept', email: 'SHARED@example.test' });
      assert.deepEqual([taken.status, taken.body.code], [409, 40901]);
      assert.equal((await k.directory().findById(k.id('dan')))?.nickname, 'Dan', 'nothing was written');
    });

    it('DELETE /system/user/:id: the account is gone, its sessions answer token-kicked-out, its refresh token is refused', async () => {
      const live = await k.tokenOf('dan');
      const pair = await k.pairOf('dan');
      const t = await k.tokenOf('uadmin');
      const r = await k
        .http()
        .delete(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .expect(200);
      assert.deepEqual(r.body.data, { userId: k.id('dan'), username: 'dan', deleted: true, sessionsEnded: 2 });
      for (const token of [live, pair.accessToken]) {
        assert.equal((await k.http().get('/auth/me').set(as(token)).expect(401)).body.code, 40105);
      }
      await k.http().post('/auth/refresh-token').send({ refreshToken: pair.refreshToken }).expect(401);
      await k
        .http()
        .get(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .expect(404);
      assert.equal(await k.directory().findByUsername('dan'), null);
      await k
        .http()
        .delete(`/system/user/${k.id('dan')}`)
        .set(as(t))
        .expect(404);
      const ops = await k.operations(await k.tokenOf('root'), 'user.delete');
      assert.deepEqual(
        ops.map((o) => [o.actor, o.target]),
        [
          ['uadmin', k.id('dan')],
          ['uadmin', k.id('dan')],
        ],
        'the refused second call is logged too',
      );
    });

    it('DELETE /system/user/:id refuses: 401, 403 without remove, 403 step-up, 403 delegation and self, 404; nothing goes', async () => {
      const del = (id: string, token?: string) => {
        const req = k.http().delete(`/system/user/${id}`);
        return token === undefined ? req : req.set(as(token));
      };
      await del(k.id('dan')).expect(401);
      assert.equal((await del(k.id('dan'), await k.tokenOf('ann'))).body.code, 40300);
      const stale = await del(k.id('dan'), await k.tokenOf('uadmin', { authAgoMs: 3_600_000 }));
      assert.deepEqual([stale.status, stale.body.code], [403, 40305]);
      const t = await k.tokenOf('uadmin');
      assert.equal((await del(k.id('root'), t)).body.code, 40302);
      assert.equal((await del(k.id('uadmin'), t)).body.code, 40302);
      assert.equal((await del('999999', t)).status, 404);
      assert.deepEqual(
        (await k.directory().list(0, 10)).users.map((u) => u.username),
        FIXTURE.users.map((u) => u.username),
      );
    });
  });
}
