/**
 * Issue 7 end to end: the admin app with svc.directory=sql logs users in from MariaDB
 * (sys_user / sys_role / sys_menu), over HTTP, on both session stores.
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import request from 'supertest';
import { FIXTURE } from '../contract/user-directory.contract';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { requireRedis } from '../support/services';
import { seedSqlFixture } from './fixture';

const encrypt = (pem: string, text: string) =>
  publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text, 'utf8')).toString('base64');

for (const kind of STORE_KINDS) {
  describe(`admin login against the SQL directory (${kind} store)`, function () {
    this.timeout(60_000);
    let db: ScratchDatabase;
    let infra: TestInfra;
    let admin: ReturnType<typeof buildBoth>['admin'];
    let pem: string;

    before(async function () {
      await requireMariaDb(this);
      if (kind === 'redis') await requireRedis(this);
      db = await ScratchDatabase.create('sqllogin');
      await seedSqlFixture(db.pool, FIXTURE); // every fixture user's password is "pw"
      const ds = db.settings;
      const config = testConfig(
        {
          'svc.directory': 'sql',
          'svc.datasource.url': ds.url,
          'svc.datasource.username': ds.username,
          'svc.datasource.password': ds.password,
          'svc.captcha.enabled': false,
          'svc.trusted-proxies': '127.0.0.1,::1',
        },
        kind,
      );
      infra = testInfra(config, { label: 'sqllogin' });
      admin = buildBoth(config, infra).admin;
      pem = (await request(admin.app.callback()).get('/auth/getConfig').expect(200)).body.data.publicKey;
    });
    after(async () => {
      await infra?.dispose();
      await db?.drop();
    });

    const login = (username: string, password: string, ip: string) =>
      request(admin.app.callback())
        .post('/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ username, password: encrypt(pem, password) });

    it('a seeded user with role admin gets *:*:*', async () => {
      const res = await login('root', 'pw', '10.1.0.1').expect(200);
      assert.deepEqual(res.body.data.roles, ['admin']);
      assert.deepEqual(res.body.data.permissions, ['*:*:*']);
      const me = await request(admin.app.callback())
        .get('/auth/me')
        .set('Authorization', `Bearer ${res.body.data.accessToken}`)
        .expect(200);
      assert.equal(me.body.data.username, 'root');
    });

    it('a user whose permissions come from two roles via sys_menu gets their union', async () => {
      const res = await login('ann', 'pw', '10.1.0.2').expect(200);
      assert.deepEqual([...res.body.data.roles].sort(), ['auditor', 'viewer']);
      assert.deepEqual([...res.body.data.permissions].sort(), ['monitor:log:list', 'monitor:online:list', 'system:user:list']);
      const token = res.body.data.accessToken;
      await request(admin.app.callback()).get('/monitor/online').set('Authorization', `Bearer ${token}`).expect(200);
      await request(admin.app.callback()).post('/system/user').set('Authorization', `Bearer ${token}`).send({}).expect(403);
    });

    it('a disabled role grants nothing', async () => {
      const res = await login('dan', 'pw', '10.1.0.3').expect(200);
      assert.deepEqual(res.body.data.roles, ['viewer']);
      assert.ok(!res.body.data.permissions.includes('system:user:remove'));
    });

    it('a disabled user is told so only with the right password; a wrong one is bad-credentials like an unknown user', async () => {
      const disabled = await login('off', 'pw', '10.1.0.4').expect(401);
      const guessed = await login('off', 'not-the-password', '10.1.0.7').expect(401);
      const wrong = await login('ann', 'not-the-password', '10.1.0.5').expect(401);
      const unknown = await login('ghost', 'pw', '10.1.0.6').expect(401);
      assert.equal(disabled.body.code, 40114);
      assert.deepEqual(guessed.body, wrong.body);
      assert.deepEqual(unknown.body, wrong.body);
    });
  });
}
