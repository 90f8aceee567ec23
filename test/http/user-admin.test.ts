/**
 * Done-when of Step 6 over HTTP, with svc.directory=sql against MariaDB and each session store:
 * a role change reaches the user's live tokens on their next request; disabling answers 401.
 * Sessions are created with SessionManager directly (the login endpoint is the auth module's).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import type { BuiltApp } from '../../src/main/operations';
import { buildAdminApp } from '../../src/main/admin';
import { FIXTURE } from '../contract/user-directory.contract';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { requireRedis } from '../support/services';
import { seedSqlFixture } from '../sql/fixture';
import { SessionManagers } from '../../src/application/session/session-manager';

for (const kind of STORE_KINDS) {
  describe(`user administration over HTTP (sql directory, ${kind} store)`, function () {
    let db: ScratchDatabase;
    let infra: TestInfra;
    let app: BuiltApp;
    let managers: SessionManagers;
    let ids: Map<string, string>;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      await requireMariaDb(this);
      db = await ScratchDatabase.create(`useradmin${kind}`);
      const ds = db.settings;
      const config = testConfig(
        {
          'svc.directory': 'sql',
          'svc.datasource.url': ds.url,
          'svc.datasource.username': ds.username,
          'svc.datasource.password': ds.password,
        },
        kind,
      );
      infra = testInfra(config, { label: 'useradmin' });
      app = buildAdminApp(config, infra);
      managers = app.container.get(SessionManagers);
    });
    beforeEach(async () => {
      await db.clear();
      ids = await seedSqlFixture(db.pool, FIXTURE);
    });
    after(async () => {
      await infra?.dispose();
      await db?.drop();
    });

    const http = () => request(app.app.callback());
    const id = (username: string) => ids.get(username) as string;
    /** A live admin session for a directory user, as the login would create it. */
    const sessionOf = async (username: string) => {
      const u = await app.container.get(TOKENS.AdminDirectory).findByUsername(username);
      assert.ok(u);
      return (await managers.get('admin').login(principalOf(u))).token;
    };
    const me = (token: string) => http().get('/auth/me').set('Authorization', `Bearer ${token}`);

    it('the routes are declared with system:user:edit', () => {
      for (const path of ['/system/user/:id/roles', '/system/user/:id/disable']) {
        const r = app.routes.find((d) => d.path === path && d.method === 'post');
        assert.ok(r, path);
        // changing roles and disabling are sensitive: a recent re-authentication too (step-up)
        assert.deepEqual(
          r.guards?.map((g) => g.doc.kind),
          ['login', 'permission', 'step-up'],
        );
        assert.deepEqual(r.guards?.[1]?.doc.permissions, ['system:user:edit']);
      }
    });

    it('a role change reaches the live tokens on their next request (gain, then loss)', async () => {
      const root = await sessionOf('root');
      const [ann1, ann2] = [await sessionOf('ann'), await sessionOf('ann')];

      // Without system:user:edit, ann cannot use the route herself.
      const denied = await http()
        .post(`/system/user/${id('dan')}/disable`)
        .set('Authorization', `Bearer ${ann1}`)
        .expect(403);
      assert.equal(denied.body.code, 40300);

      const gain = await http()
        .post(`/system/user/${id('ann')}/roles`)
        .set('Authorization', `Bearer ${root}`)
        .send({ roles: ['viewer', 'editor'] })
        .expect(200);
      assert.equal(gain.body.code, 0);
      assert.deepEqual(gain.body.data, {
        userId: id('ann'),
        username: 'ann',
        enabled: true,
        roles: ['editor', 'viewer'],
        permissions: ['monitor:online:list', 'system:user:edit', 'system:user:list'],
        sessionsUpdated: 2,
      });
      for (const t of [ann1, ann2]) assert.ok((await me(t).expect(200)).body.data.permissions.includes('system:user:edit'));
      // ... and the new permission works at once: ann may now change the roles of a user she covers
      // (dan holds a dormant role she lacks) to a role she holds herself (test/http/delegation.test.ts).
      await http()
        .post(`/system/user/${id('nobody')}/roles`)
        .set('Authorization', `Bearer ${ann1}`)
        .send({ roles: ['viewer'] })
        .expect(200);

      const loss = await http()
        .post(`/system/user/${id('ann')}/roles`)
        .set('Authorization', `Bearer ${root}`)
        .send({ roles: ['auditor'] })
        .expect(200);
      assert.equal(loss.body.data.sessionsUpdated, 2);
      const after = await me(ann2).expect(200);
      assert.deepEqual(after.body.data.roles, ['auditor']);
      assert.deepEqual(after.body.data.permissions, ['monitor:log:list', 'monitor:online:list']);
      await http()
        .post(`/system/user/${id('dan')}/roles`)
        .set('Authorization', `Bearer ${ann2}`)
        .send({ roles: [] })
        .expect(403);
    });

    it('disable: every token of the user answers 401 on its next request; others are untouched', async () => {
      const root = await sessionOf('root');
      const [ann1, ann2] = [await sessionOf('ann'), await sessionOf('ann')];
      const dan = await sessionOf('dan');
      const res = await http()
        .post(`/system/user/${id('ann')}/disable`)
        .set('Authorization', `Bearer ${root}`)
        .expect(200);
      assert.deepEqual(res.body.data, {
        userId: id('ann'),
        username: 'ann',
        enabled: false,
        disabledReason: null,
        disabledUntil: null,
        sessionsEnded: 2,
      });
      for (const t of [ann1, ann2]) {
        const r = await me(t).expect(401);
        assert.equal(r.body.code, 40105, 'token-kicked-out');
        assert.match(r.headers['www-authenticate'] ?? '', /error="invalid_token"/);
      }
      await me(dan).expect(200);
      await me(root).expect(200);
      assert.equal((await app.container.get(TOKENS.AdminDirectory).findById(id('ann')))?.enabled, false);
    });

    it('errors: unknown user 404, unknown role 400 at /roles, bad body 400, no token 401', async () => {
      const root = await sessionOf('root');
      const auth = { Authorization: `Bearer ${root}` };
      assert.equal((await http().post('/system/user/424242/roles').set(auth).send({ roles: [] }).expect(404)).body.code, 40401);
      assert.equal((await http().post('/system/user/not-a-number/disable').set(auth).expect(404)).body.code, 40401);
      const unknown = await http()
        .post(`/system/user/${id('ann')}/roles`)
        .set(auth)
        .send({ roles: ['viewer', 'no-such-role'] })
        .expect(400);
      assert.equal(unknown.body.code, 40000);
      assert.deepEqual(
        unknown.body.errors.map((e: { pointer: string }) => e.pointer),
        ['/roles'],
      );
      assert.match(unknown.body.message, /no-such-role/);
      assert.equal((await me(await sessionOf('ann')).expect(200)).body.data.roles.length, 2, 'nothing changed');
      const bad = await http()
        .post(`/system/user/${id('ann')}/roles`)
        .set(auth)
        .send({ roles: 'admin' })
        .expect(400);
      assert.deepEqual(
        bad.body.errors.map((e: { pointer: string }) => e.pointer),
        ['/roles'],
      );
      await http()
        .post(`/system/user/${id('ann')}/disable`)
        .expect(401);
    });
  });
}
