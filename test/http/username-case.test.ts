/**
 * One account per name, whatever its case, over HTTP on the file and the SQL directory: admin user
 * creation and web registration answer 409 `username-taken` for a name taken in another case (in
 * each app's own error format), and a login by any case of a name logs in as that account and
 * shows its stored spelling.
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import type Koa from 'koa';
import request from 'supertest';
import { SqlMemberDirectory } from '../../src/adapters/sql/sql-member-directory';
import type { ConfigKey } from '../../src/main/config';
import { HASH } from '../contract/user-directory.contract';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { seedSqlFixture } from '../sql/fixture';

type DirectoryKind = 'file' | 'sql';

interface Setup {
  readonly config: Partial<Record<ConfigKey, unknown>>;
  /** Passwords of admin, viewer (admin app) and alice (web app). */
  readonly passwords: { readonly admin: string; readonly alice: string };
  dispose(): Promise<void>;
}

/** file: config/users.yml and members.yml. sql: a scratch database holding the same accounts (password "pw"). */
async function directoryOf(kind: DirectoryKind, ctx: Mocha.Context): Promise<Setup> {
  if (kind === 'file') return { config: {}, passwords: { admin: 'admin123', alice: 'alice-pass-123' }, dispose: async () => undefined };
  await requireMariaDb(ctx);
  const db = await ScratchDatabase.create('namecase');
  await seedSqlFixture(db.pool, {
    roles: [
      { key: 'admin', enabled: true, permissions: [] },
      { key: 'viewer', enabled: true, permissions: ['system:user:list'] },
    ],
    users: [
      { username: 'admin', nickname: 'Administrator', passwordHash: HASH, enabled: true, roles: ['admin'] },
      { username: 'viewer', nickname: 'Viewer', passwordHash: HASH, enabled: true, roles: ['viewer'] },
    ],
  });
  const alice = await new SqlMemberDirectory(db.pool).create({ username: 'alice', nickname: 'Alice', passwordHash: HASH, roles: [] });
  assert.ok(alice.ok);
  const ds = db.settings;
  return {
    config: {
      'svc.directory': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
    },
    passwords: { admin: 'pw', alice: 'pw' },
    dispose: () => db.drop(),
  };
}

for (const kind of ['file', 'sql'] as const) {
  describe(`usernames are unique whatever their case over HTTP (${kind} directory)`, function () {
    this.timeout(30_000);
    let setup: Setup;
    let infra: TestInfra;
    let admin: Koa;
    let web: Koa;
    let pem: string;
    let adminToken: string;
    let ip = 0;

    before(async function () {
      setup = await directoryOf(kind, this);
      const config = testConfig({
        'svc.crypto.worker-threads': 1,
        'svc.trusted-proxies': '127.0.0.1,::1',
        'svc.captcha.enabled': false,
        ...setup.config,
      });
      infra = testInfra(config, { label: `namecase${kind}` });
      const built = buildBoth(config, infra);
      admin = built.admin.app;
      web = built.web.app;
      pem = (await request(admin.callback()).get('/auth/getConfig').expect(200)).body.data.publicKey;
      adminToken = (await adminLogin('admin', setup.passwords.admin).expect(200)).body.data.accessToken;
    });
    after(async () => {
      await infra?.dispose();
      await setup?.dispose();
    });

    // Each request from its own client IP: the login and register rate limits are not under test here.
    const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;
    const encrypt = (text: string) =>
      publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text, 'utf8')).toString(
        'base64',
      );
    const adminLogin = (username: string, password: string) =>
      request(admin.callback())
        .post('/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ username, password: encrypt(password) });
    const createUser = (username: string) =>
      request(admin.callback())
        .post('/system/user')
        .set('Authorization', `Bearer ${adminToken}`)
        .send({ username, password: encrypt('some-pass-123'), roles: ['viewer'] });
    const register = (username: string) =>
      request(web.callback()).post('/auth/register').set('X-Forwarded-For', nextIp()).send({ username, password: 'some-pass-123' });

    it('admin: creating Viewer beside viewer answers 409 username-taken in the envelope', async () => {
      for (const username of ['Viewer', 'VIEWER', 'ADMIN']) {
        const res = await createUser(username).expect(409);
        assert.equal(res.body.code, 40900, username);
        assert.match(res.body.message, /already taken/);
        assert.equal(res.body.data, null);
      }
      const list = await request(admin.callback())
        .get('/system/user/list?page=1&pageSize=50')
        .set('Authorization', `Bearer ${adminToken}`)
        .expect(200);
      assert.deepEqual(list.body.data.list.map((u: { username: string }) => u.username).sort(), ['admin', 'viewer'], 'nothing was created');
    });

    it('admin: a new name keeps its spelling everywhere, and its other cases are taken', async () => {
      const created = await createUser('MixedCase').expect(200);
      assert.equal(created.body.data.username, 'MixedCase');
      assert.equal((await createUser('mixedcase').expect(409)).body.code, 40900);
      const list = await request(admin.callback())
        .get('/system/user/list?page=1&pageSize=50')
        .set('Authorization', `Bearer ${adminToken}`)
        .expect(200);
      assert.ok(list.body.data.list.some((u: { username: string }) => u.username === 'MixedCase'));
      const login = await adminLogin('MIXEDCASE', 'some-pass-123').expect(200);
      assert.equal(login.body.data.username, 'MixedCase');
    });

    it('admin: logging in as ADMIN logs in as admin and shows admin', async () => {
      const res = await adminLogin('ADMIN', setup.passwords.admin).expect(200);
      assert.equal(res.body.data.username, 'admin');
      assert.deepEqual(res.body.data.permissions, ['*:*:*']);
      const me = await request(admin.callback()).get('/auth/me').set('Authorization', `Bearer ${res.body.data.accessToken}`).expect(200);
      assert.equal(me.body.data.username, 'admin');
      assert.equal(
        me.body.data.userId,
        (await request(admin.callback()).get('/auth/me').set('Authorization', `Bearer ${adminToken}`)).body.data.userId,
      );
    });

    it('web: registering Alice beside alice answers 409 username-taken as problem+json', async () => {
      for (const username of ['Alice', 'ALICE']) {
        const res = await register(username).expect(409);
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        const body = JSON.parse(res.text) as { code: string; status: number; detail: string };
        assert.deepEqual([body.code, body.status], ['username-taken', 409], username);
        assert.match(body.detail, /already taken/);
      }
    });

    it('web: a registered spelling is kept; any case logs in and the profile shows the stored spelling', async () => {
      const created = await register('Bob.Builder').expect(201);
      assert.equal(created.body.username, 'Bob.Builder');
      await register('bob.builder').expect(409);
      const login = await request(web.callback())
        .post('/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ username: 'BOB.BUILDER', password: 'some-pass-123' })
        .expect(200);
      const profile = await request(web.callback())
        .get('/user/profile')
        .set('Authorization', `Bearer ${login.body.accessToken}`)
        .expect(200);
      assert.equal(profile.body.username, 'Bob.Builder');
      const alice = await request(web.callback())
        .post('/auth/login')
        .set('X-Forwarded-For', nextIp())
        .send({ username: 'ALICE', password: setup.passwords.alice })
        .expect(200);
      const aliceProfile = await request(web.callback())
        .get('/user/profile')
        .set('Authorization', `Bearer ${alice.body.accessToken}`)
        .expect(200);
      assert.equal(aliceProfile.body.username, 'alice');
    });
  });
}
