import assert from 'node:assert/strict';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import type { Principal } from '../../src/domain/session';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

const user: Principal = { userId: '42', username: 'ops', roles: ['admin'], permissions: ['*:*:*'] };

describe('store outage: fail closed, recover by itself', function () {
  this.timeout(60_000);
  let redis: DisposableRedis;
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async function () {
    await requireRedisServer(this);
    process.on('unhandledRejection', onUnhandled);
    redis = await DisposableRedis.create();
    const config = testConfig({ 'svc.redis.url': redis.url, 'svc.redis.command-timeout-ms': 300 }, 'redis');
    infra = testInfra(config, { label: 'outage' });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await infra?.close().catch(() => undefined);
    await redis?.kill();
  });

  it('answers 503 in each app\'s format while Redis is down, never 200 or 500, and recovers within 5 s', async () => {
    const managers = apps.admin.container.get(TOKENS.SessionManagers);
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
});
