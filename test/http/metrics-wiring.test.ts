/**
 * The use cases report to the Metrics port: logins by outcome, rate-limit rejections, signature
 * failures by reason and idempotency conflicts, read back from /actuator/prometheus.
 */
import assert from 'node:assert/strict';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import 'reflect-metadata';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { sample } from '../support/prometheus';

const APP = 'metrics-app';
const SECRET = 'metrics-secret-0123456789abcdef';

describe('metrics: the use cases count what /actuator/prometheus shows', function () {
  this.timeout(30000);
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  let publicKey: string;

  before(async () => {
    // loopback is a trusted proxy, so each test picks its client IP with X-Forwarded-For
    const config = testConfig({
      'svc.security.sign.apps': { [APP]: SECRET },
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.crypto.worker-threads': 1,
    });
    infra = testInfra(config, { label: 'metrics-wiring' });
    apps = buildBoth(config, infra);
    publicKey = (await request(apps.admin.app.callback()).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
  });
  after(async () => infra?.dispose());

  const scrape = async (which: 'admin' | 'web') => (await request(apps[which].app.callback()).get('/actuator/prometheus').expect(200)).text;
  const encrypt = (pw: string) =>
    publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(pw)).toString('base64');
  const login = (password: string, ip: string) =>
    request(apps.admin.app.callback())
      .post('/auth/login')
      .set('X-Forwarded-For', ip)
      .send({ username: 'admin', password: encrypt(password) });

  it('counts logins by outcome: a failure under its reason, then a success', async () => {
    const logins = (text: string, outcome: string) =>
      sample(text, 'authguard_logins_total', { app: 'admin', login_type: 'admin', outcome }) ?? 0;
    const before = await scrape('admin');
    await login('wrong-password', '10.1.0.1').expect(401);
    const afterFailure = await scrape('admin');
    assert.equal(logins(afterFailure, 'bad-credentials') - logins(before, 'bad-credentials'), 1);
    assert.equal(logins(afterFailure, 'success') - logins(before, 'success'), 0);
    await login('admin123', '10.1.0.2').expect(200);
    const afterSuccess = await scrape('admin');
    assert.equal(logins(afterSuccess, 'success') - logins(before, 'success'), 1);
    assert.equal(logins(afterSuccess, 'bad-credentials') - logins(before, 'bad-credentials'), 1);
  });

  it('counts rate-limit rejections by limiter', async () => {
    const rejected = (text: string) => sample(text, 'authguard_rate_limit_rejections_total', { app: 'admin', limiter: 'login' }) ?? 0;
    const before = rejected(await scrape('admin'));
    for (let i = 0; i < 5; i++)
      await request(apps.admin.app.callback()).post('/auth/login').set('X-Forwarded-For', '10.2.0.1').send({}).expect(400);
    assert.equal(rejected(await scrape('admin')), before, 'allowed requests are not rejections');
    await request(apps.admin.app.callback()).post('/auth/login').set('X-Forwarded-For', '10.2.0.1').send({}).expect(429);
    await request(apps.admin.app.callback()).post('/auth/login').set('X-Forwarded-For', '10.2.0.1').send({}).expect(429);
    assert.equal(rejected(await scrape('admin')) - before, 2);
  });

  it('counts signature failures by reason, and nothing for a valid signature', async () => {
    const failures = (text: string, reason: string) => sample(text, 'authguard_signature_failures_total', { app: 'web', reason }) ?? 0;
    const web = apps.web.app.callback();
    const body = '{"n":1}';
    const ts = String(Date.now());
    const nonce = randomBytes(12).toString('hex');
    const good = createHmac('sha256', SECRET)
      .update(APP + ts + nonce + body)
      .digest('hex');
    const before = await scrape('web');
    await request(web).post('/open/echo').set('Content-Type', 'application/json').send(body).expect(400);
    const headers = { 'X-App-Key': APP, 'X-Timestamp': ts, 'X-Nonce': nonce };
    await request(web)
      .post('/open/echo')
      .set(headers)
      .set('X-Sign', '0'.repeat(64))
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(401);
    await request(web).post('/open/echo').set(headers).set('X-Sign', good).set('Content-Type', 'application/json').send(body).expect(200);
    await request(web).post('/open/echo').set(headers).set('X-Sign', good).set('Content-Type', 'application/json').send(body).expect(401);
    const after = await scrape('web');
    assert.equal(failures(after, 'sign-headers-missing') - failures(before, 'sign-headers-missing'), 1);
    assert.equal(failures(after, 'sign-invalid') - failures(before, 'sign-invalid'), 1);
    assert.equal(failures(after, 'sign-nonce-replayed') - failures(before, 'sign-nonce-replayed'), 1);
  });

  it('counts idempotency conflicts of every mode by reason', async () => {
    const conflicts = (text: string, app: string, mode: string, reason: string) =>
      sample(text, 'authguard_idempotency_conflicts_total', { app, mode, reason }) ?? 0;
    const managers = apps.admin.container.get(SessionManagers);
    const adminToken = (await managers.get('admin').login({ userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] }))
      .token;
    const webToken = (await managers.get('web').login({ userId: 'm1', username: 'member', roles: [], permissions: [] })).token;
    const admin = apps.admin.app.callback();
    const web = apps.web.app.callback();
    const beforeAdmin = await scrape('admin');
    const beforeWeb = await scrape('web');

    // PARAM: the same notice twice inside the lock
    await request(admin).post('/examples/notices').set('Authorization', `Bearer ${adminToken}`).send({ title: 'm' }).expect(201);
    await request(admin).post('/examples/notices').set('Authorization', `Bearer ${adminToken}`).send({ title: 'm' }).expect(409);
    // TOKEN: a token that was never issued
    await request(web)
      .post('/orders')
      .set('Authorization', `Bearer ${webToken}`)
      .set('X-Idempotent-Token', '3f2b8c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f')
      .send({ item: 'x', quantity: 1 })
      .expect(409);
    // HEADER: the same key with another payload
    const key = `k-${randomBytes(6).toString('hex')}`;
    await request(web)
      .post('/payments')
      .set('Authorization', `Bearer ${webToken}`)
      .set('Idempotency-Key', key)
      .send({ amount: 1, currency: 'EUR' })
      .expect(201);
    await request(web)
      .post('/payments')
      .set('Authorization', `Bearer ${webToken}`)
      .set('Idempotency-Key', key)
      .send({ amount: 2, currency: 'EUR' })
      .expect(422);

    const afterAdmin = await scrape('admin');
    const afterWeb = await scrape('web');
    assert.equal(
      conflicts(afterAdmin, 'admin', 'PARAM', 'duplicate-submission') - conflicts(beforeAdmin, 'admin', 'PARAM', 'duplicate-submission'),
      1,
    );
    assert.equal(
      conflicts(afterWeb, 'web', 'TOKEN', 'idempotency-token-invalid') - conflicts(beforeWeb, 'web', 'TOKEN', 'idempotency-token-invalid'),
      1,
    );
    assert.equal(
      conflicts(afterWeb, 'web', 'HEADER', 'idempotency-key-mismatch') - conflicts(beforeWeb, 'web', 'HEADER', 'idempotency-key-mismatch'),
      1,
    );
  });
});
