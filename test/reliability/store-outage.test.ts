import assert from 'node:assert/strict';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { isDomainError } from '../../src/domain/errors';
import type { Principal } from '../../src/domain/session';
import type { AppConfig } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

const user: Principal = { userId: '42', username: 'ops', roles: ['admin'], permissions: ['*:*:*'] };
const SIGN_APP = 'partner';
const SIGN_SECRET = 'outage-test-secret-0123456789';

/** Polls `probe` until it returns true, for at most `ms`; returns how long it took. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await probe()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not within ${ms} ms`);
}

function signed(body: string): Record<string, string> {
  const ts = String(Date.now());
  const nonce = randomBytes(12).toString('hex');
  return {
    'X-App-Key': SIGN_APP,
    'X-Timestamp': ts,
    'X-Nonce': nonce,
    'X-Sign': createHmac('sha256', SIGN_SECRET)
      .update(SIGN_APP + ts + nonce + body)
      .digest('hex'),
  };
}

describe('store outage: fail closed, recover by itself', function () {
  this.timeout(60_000);
  let redis: DisposableRedis;
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  let config: AppConfig;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async function () {
    await requireRedisServer(this);
    process.on('unhandledRejection', onUnhandled);
    redis = await DisposableRedis.create();
    config = testConfig(
      {
        'svc.redis.url': redis.url,
        'svc.redis.command-timeout-ms': 300,
        'svc.trusted-proxies': '127.0.0.1,::1',
        'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
        'svc.crypto.worker-threads': 1,
      },
      'redis',
    );
    infra = testInfra(config, { label: 'outage' });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await infra?.close().catch(() => undefined);
    await redis?.kill();
  });

  it("answers 503 in each app's format while Redis is down, never 200 or 500, and recovers within 5 s", async () => {
    const managers = apps.admin.container.get(SessionManagers);
    const adminToken = (await managers.get('admin').login(user)).token;
    const webToken = (await managers.get('web').login(user)).token;
    await request(apps.admin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${adminToken}`).expect(200);

    await redis.kill();
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const a = await request(apps.admin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${adminToken}`);
      assert.equal(a.status, 503, `admin request ${i}: ${a.status} ${a.text}`);
      assert.equal(a.body.code, 50300);
      assert.equal(a.body.data, null);
      assert.ok(a.headers['retry-after']);
      const w = await request(apps.web.app.callback()).get('/user/profile').set('Authorization', `Bearer ${webToken}`);
      assert.equal(w.status, 503);
      assert.match(w.headers['content-type'] ?? '', /application\/problem\+json/);
      assert.equal(JSON.parse(w.text).code, 'store-unavailable');
      assert.ok(Date.now() - started < 3000, 'a request during the outage is answered within a bounded time');
    }
    // Public routes that need no store keep working, and unauthenticated requests are still 401.
    await request(apps.admin.app.callback()).get('/auth/me').expect(401);

    await redis.start();
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await request(apps.admin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${adminToken}`)).status;
      if (status !== 503) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The restarted Redis keeps nothing on disk, so the old session is gone: 401, not 503.
    assert.equal(status, 401, 'recovered within 5 s without restarting the app');
    const fresh = (await managers.get('admin').login(user)).token;
    await request(apps.admin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${fresh}`).expect(200);
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  it('login fails closed (503, never 200/401/429) and readiness is DOWN during the outage; both recover within 5 s', async () => {
    const admin = () => request(apps.admin.app.callback());
    const web = () => request(apps.web.app.callback());
    const pem = (await admin().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
    const enc = () =>
      publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString(
        'base64',
      );
    const ready = async () =>
      (await admin().get('/actuator/health/readiness')).status === 200 && (await web().get('/actuator/health/readiness')).status === 200;
    await within(5000, ready);

    await redis.kill();
    for (let i = 0; i < 8; i++) {
      const started = Date.now();
      const res = await admin().post('/auth/login').set('X-Forwarded-For', `10.9.0.${i}`).send({ username: 'admin', password: enc() });
      assert.equal(res.status, 503, `login ${i}: ${res.status} ${res.text}`);
      assert.equal(res.body.code, 50300);
      assert.equal(res.body.data, null);
      assert.ok(Date.now() - started < 3000, 'answered within a bounded time');
    }
    for (const app of [admin, web]) {
      const started = Date.now();
      const r = await app().get('/actuator/health/readiness');
      assert.equal(r.status, 503);
      assert.equal(r.body.status, 'DOWN');
      assert.ok(Date.now() - started < 4000, 'readiness answers within its check timeout');
      assert.equal((await app().get('/actuator/health/liveness')).status, 200, 'liveness stays UP: restarting would not help');
    }

    await redis.start();
    const took = await within(5000, ready);
    assert.ok(took < 5000);
    const ok = await admin().post('/auth/login').set('X-Forwarded-For', '10.9.1.1').send({ username: 'admin', password: enc() });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  });

  it('a signed request is never accepted while the nonce store is down (503), and is accepted after recovery', async () => {
    const admin = () => request(apps.admin.app.callback());
    const web = () => request(apps.web.app.callback());
    await redis.kill();
    const body = JSON.stringify({ pay: 1 });
    const headers = signed(body);
    const a = await admin().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body);
    assert.equal(a.status, 503, a.text);
    assert.equal(a.body.code, 50300);
    const w = await web().post('/open/echo').set(signed(body)).set('Content-Type', 'application/json').send(body);
    assert.equal(w.status, 503);
    assert.equal(JSON.parse(w.text).code, 'store-unavailable');
    await redis.start();
    await within(5000, async () => (await admin().get('/actuator/health/readiness')).status === 200);
    // The refused request burned nothing: the same signed request now passes, once.
    await admin().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body).expect(200);
    const replay = await admin().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body);
    assert.equal(replay.body.code, 40123);
    assert.deepEqual(unhandled, []);
  });

  describe('each guard fails closed on its own (the other stores stay up)', () => {
    // Sessions, lists and rate limits on memory; only the store under test is the dying Redis. A
    // guard that passed through on a store error would then let the request reach its handler.
    let mem: Infrastructure;
    let hybrid: ReturnType<typeof buildBoth>;
    let redisInfra: TestInfra;
    const token: Record<'admin' | 'web', string> = { admin: '', web: '' };
    before(async () => {
      mem = createInfrastructure(testConfig({ 'svc.crypto.worker-threads': 1 }), { log: silentLogger });
      redisInfra = testInfra(config, { label: 'outage-hybrid' });
      const managers = buildBoth(config, { ...redisInfra, sessions: mem.sessions, lists: mem.lists }).admin.container.get(SessionManagers);
      token.admin = (await managers.get('admin').login(user)).token;
      token.web = (await managers.get('web').login(user)).token;
    });
    after(async () => {
      await mem?.close();
      await redisInfra?.close().catch(() => undefined);
    });

    it('the login rate limiter: 503 while its store is down even though the rest of login would work', async () => {
      hybrid = buildBoth(config, { ...mem, rateLimits: redisInfra.rateLimits, health: redisInfra.health });
      const admin = () => request(hybrid.admin.app.callback());
      const pem = (await admin().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      const enc = () =>
        publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString(
          'base64',
        );
      await admin().post('/auth/login').set('X-Forwarded-For', '10.8.0.1').send({ username: 'admin', password: enc() }).expect(200);
      await redis.kill();
      for (let i = 0; i < 5; i++) {
        const r = await admin().post('/auth/login').set('X-Forwarded-For', '10.8.0.1').send({ username: 'admin', password: enc() });
        assert.equal(r.status, 503, `a pass-through would be 200: ${r.text}`);
        assert.equal(r.body.code, 50300);
      }
      await redis.start();
      let attempt = 0;
      await within(
        5000,
        async () =>
          (await admin().post('/auth/login').set('X-Forwarded-For', `10.8.1.${++attempt}`).send({ username: 'admin', password: enc() }))
            .status === 200,
      );
    });

    it('the captcha store: store-unavailable while its store is down, working again after recovery', async () => {
      const unavailable = (e: unknown): boolean => isDomainError(e) && e.reason === 'store-unavailable';
      const challenge = { answer: 'x', expiresAt: Date.now() + 60_000 };
      await redisInfra.captchas.save('admin', 'c-outage', challenge, 60_000);
      await redis.kill();
      await assert.rejects(redisInfra.captchas.take('admin', 'c-outage'), unavailable);
      await assert.rejects(redisInfra.captchas.save('admin', 'c-outage-2', challenge, 60_000), unavailable);
      await redis.start();
      await within(5000, () =>
        redisInfra.captchas.take('admin', 'c-outage').then(
          () => true,
          () => false,
        ),
      );
      assert.deepEqual(unhandled, []);
    });

    it('idempotency (PARAM, TOKEN, HEADER): 503 while the lock store is down, and the handler never runs', async () => {
      hybrid = buildBoth(config, { ...mem, kv: redisInfra.kv, health: redisInfra.health });
      const admin = () => request(hybrid.admin.app.callback());
      const web = () => request(hybrid.web.app.callback());
      const orderToken = (await web().get('/idempotent/token').expect(200)).body.token as string;
      await redis.kill();
      const notice = await admin()
        .post('/examples/notices')
        .set('Authorization', `Bearer ${token.admin}`)
        .send({ title: 'during the outage' });
      assert.equal(notice.status, 503, notice.text);
      const order = await web()
        .post('/orders')
        .set('Authorization', `Bearer ${token.web}`)
        .set('X-Idempotent-Token', orderToken)
        .send({ item: 'x', quantity: 1 });
      assert.equal(order.status, 503, order.text);
      const payment = await web()
        .post('/payments')
        .set('Authorization', `Bearer ${token.web}`)
        .set('Idempotency-Key', 'k-outage-1')
        .send({ amount: 5, currency: 'EUR' });
      assert.equal(payment.status, 503, payment.text);
      // No handler ran: the record lists (on the live memory store) are empty.
      assert.deepEqual((await admin().get('/examples/notices').set('Authorization', `Bearer ${token.admin}`).expect(200)).body.data, []);
      assert.deepEqual((await web().get('/orders').set('Authorization', `Bearer ${token.web}`).expect(200)).body, []);
      assert.deepEqual((await web().get('/payments').set('Authorization', `Bearer ${token.web}`).expect(200)).body, []);
      await redis.start();
      await within(5000, async () => (await admin().get('/actuator/health/readiness')).status === 200);
      assert.deepEqual(unhandled, []);
    });
  });
});
