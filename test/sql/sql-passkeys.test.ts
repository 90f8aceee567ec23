/**
 * Passkeys with svc.directory=sql, end to end over HTTP: a user of MariaDB registers a passkey
 * (kept in the `passkey` table), logs in with it alone, and a clone replaying an old counter is
 * refused; the admin's and a member's passkeys live apart, each under its login type.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import type { RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { FIXTURE } from '../contract/user-directory.contract';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { adminLogin } from '../support/flows';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { seedSqlFixture } from './fixture';

describe('passkeys against the SQL directory (MariaDB)', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let infra: TestInfra;
  let built: ReturnType<typeof buildBoth>;

  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('sqlpasskeys');
    await seedSqlFixture(db.pool, FIXTURE); // every fixture user's password is "pw"
    const ds = db.settings;
    const config = testConfig({
      'svc.directory': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
      'svc.trusted-proxies': '127.0.0.1,::1',
    });
    infra = testInfra(config, { label: 'sqlpasskeys' });
    built = buildBoth(config, infra);
  });
  after(async () => {
    await infra?.dispose();
    await db?.drop();
  });

  it('registers a passkey into the passkey table, logs in with it alone, and refuses a clone', async () => {
    const admin = built.admin.app.callback();
    const token = (await adminLogin(built.admin.app)('root', 'pw', '10.7.0.1')).body.data.accessToken as string;
    const auth = new SoftAuthenticator('http://localhost:8080');
    const options = await request(admin).post('/auth/passkeys/options').set('Authorization', `Bearer ${token}`).expect(200);
    const reg = await request(admin)
      .post('/auth/passkeys')
      .set('Authorization', `Bearer ${token}`)
      .send({ response: auth.create(options.body.data), name: 'Büro-Laptop' })
      .expect(201);
    const id = reg.body.data.id as string;
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT login_type, user_id, name, counter FROM passkey WHERE credential_id = ?', [
      id,
    ]);
    const root = await infra.directories.admins.findByUsername('root');
    assert.deepEqual(
      rows.map((r) => [r.login_type, r.user_id, r.name, Number(r.counter)]),
      [['admin', root?.id, 'Büro-Laptop', 0]],
    );

    const passwordless = async (counter?: number) => {
      const o = await request(admin).post('/auth/passkey-login/options').set('X-Forwarded-For', '10.7.0.2').expect(200);
      const response = auth.get(o.body.data, counter === undefined ? {} : { counter });
      return request(admin).post('/auth/passkey-login').set('X-Forwarded-For', '10.7.0.2').send({ response });
    };
    const first = await passwordless();
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.username, 'root');
    assert.equal((await passwordless()).status, 200);
    const clone = await passwordless(1);
    assert.equal(clone.status, 401);
    assert.equal(clone.body.code, 40117);
    const [after] = await db.pool.query<RowDataPacket[]>('SELECT counter, last_used_at FROM passkey WHERE credential_id = ?', [id]);
    assert.equal(Number(after[0]?.counter), 2);
    assert.ok(Number(after[0]?.last_used_at) > 0);

    // the member directory has ids of its own: the same number on the web app is another person, with no passkey
    const web = built.web.app.callback();
    const o = await request(web).post('/auth/passkey-login/options').set('X-Forwarded-For', '10.7.0.3').expect(200);
    const onWeb = await request(web)
      .post('/auth/passkey-login')
      .set('X-Forwarded-For', '10.7.0.3')
      .send({ response: auth.get(o.body) });
    assert.equal(onWeb.status, 401);
    assert.equal(onWeb.body.code, 'passkey-invalid');
  });
});
