/**
 * The service on Redis Sentinel (a real master + replica + 3 Sentinels from the test support):
 * the login / refresh / logout and signed-request flows over HTTP, fail-closed replica WAIT, and a
 * master killed with traffic running: the service follows the promoted replica by itself within
 * 10 s, answers only 503s in its own format meanwhile, and keeps every acknowledged session and
 * logout (svc.redis.wait-replicas=1). Without redis-server it is skipped loudly (fails under CI=true).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import type { AppConfig, ConfigKey } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, testConfig } from '../support/apps';
import { adminLogin, bearer, signedHeaders, untilReady } from '../support/flows';
import { requireRedisServer } from '../support/redis-server';
import { SentinelTopology } from '../support/redis-sentinel';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'sentinel-http-pw';
const SIGN_APP = 'partner';
const SIGN_SECRET = 'sentinel-test-secret-0123456789';

const signed = (body: string) => signedHeaders(SIGN_APP, SIGN_SECRET, body);

describe('Redis Sentinel: the service end to end, and a master failover', function () {
  this.timeout(60_000);
  let topology: SentinelTopology;
  const opened: Infrastructure[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async function () {
    await requireRedisServer(this);
    process.on('unhandledRejection', onUnhandled);
    topology = await SentinelTopology.start({ password: PASSWORD });
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    for (const infra of opened) await infra.close().catch(() => undefined);
    topology?.stop();
  });

  function sentinelApps(overrides: Partial<Record<ConfigKey, unknown>> = {}) {
    const config: AppConfig = testConfig(
      {
        'svc.redis.mode': 'sentinel',
        'svc.redis.url': '',
        'svc.redis.sentinels': topology.sentinelList,
        'svc.redis.password': PASSWORD,
        'svc.redis.command-timeout-ms': 500,
        'svc.trusted-proxies': '127.0.0.1,::1',
        'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
        'svc.crypto.worker-threads': 1,
        ...overrides,
      },
      'redis',
    );
    const infra = createInfrastructure(config, { log: silentLogger, keyPrefix: testKeyPrefix('sentinel-http') });
    opened.push(infra);
    const apps = buildBoth(config, infra);
    const admin = () => request(apps.admin.app.callback());
    let ip = 0;
    const loginAs = adminLogin(apps.admin.app);
    const login = () => loginAs('admin', 'admin123', `10.7.${Math.floor(++ip / 250)}.${ip % 250}`);
    return { config, infra, apps, admin, login };
  }

  it('admin login -> /auth/me -> refresh -> logout, and a signed request then its replay, on the master the Sentinels name', async () => {
    // A cold client first asks the sentinels for the master: wait until the service reports ready,
    // as a deployment does before it sends traffic (the suite's short 500 ms timeout is for the failover test).
    const { admin, login, apps } = sentinelApps({ 'svc.redis.wait-replicas': 1, 'svc.redis.command-timeout-ms': 2000 });
    await untilReady(apps.admin.app, 5000);
    const res = await login();
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    await admin().get('/auth/me').set(bearer(d.accessToken)).expect(200);
    const r1 = await admin().post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(200);
    await admin().get('/auth/me').set(bearer(d.accessToken)).expect(401);
    await admin().get('/auth/me').set(bearer(r1.body.data.accessToken)).expect(200);
    await admin().post('/auth/logout').set(bearer(r1.body.data.accessToken)).expect(200);
    await admin().get('/auth/me').set(bearer(r1.body.data.accessToken)).expect(401);
    await admin().post('/auth/refresh-token').send({ refreshToken: r1.body.data.refreshToken }).expect(401);

    const body = JSON.stringify({ pay: 1 });
    const headers = signed(body);
    await admin().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body).expect(200);
    const replay = await admin().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body);
    assert.equal(replay.body.code, 40123, replay.text);
    const w = await request(apps.web.app.callback())
      .post('/open/echo')
      .set(signed(body))
      .set('Content-Type', 'application/json')
      .send(body);
    assert.equal(w.status, 200, w.text);

    const health = await admin().get('/actuator/health').expect(200);
    const store = health.body.components.store.details;
    assert.equal(store.mode, 'sentinel');
    assert.equal(store.master.reachable, true);
    assert.deepEqual(
      store.sentinels.map((s: { reachable: boolean }) => s.reachable),
      [true, true, true],
    );
  });

  it('more replicas asked for than acknowledge: the login fails closed (503 in the envelope), never 200', async () => {
    const { login, admin } = sentinelApps({ 'svc.redis.wait-replicas': 2 });
    const res = await login();
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.code, 50300);
    assert.equal(res.body.data, null);
    await admin().get('/actuator/health/readiness').expect(200);
  });

  it(
    'the master is SIGKILLed under traffic: only 503s meanwhile, requests succeed again within ' +
      '10 s, every acknowledged session and logout kept',
    async () => {
      const { admin, login } = sentinelApps({ 'svc.redis.wait-replicas': 1 });
      const tokens: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await login();
        assert.equal(r.status, 200, r.text);
        tokens.push(r.body.data.accessToken as string);
      }
      const loggedOut = tokens.splice(0, 2);
      for (const t of loggedOut) await admin().post('/auth/logout').set(bearer(t)).expect(200);

      const seen = new Map<number, number>();
      const bad: string[] = [];
      let stop = false;
      let lastFailure = 0;
      const worker = async (n: number) => {
        for (let i = n; !stop; i++) {
          const r = await admin()
            .get('/auth/me')
            .set(bearer(tokens[i % tokens.length] as string));
          seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
          if (r.status === 503) {
            lastFailure = Date.now();
            if (r.body.code !== 50300 || r.body.data !== null || !r.headers['retry-after']) bad.push(r.text);
          } else if (r.status !== 200) bad.push(`${r.status} ${r.text}`);
          await new Promise((res) => setTimeout(res, 20));
        }
      };
      const traffic = Promise.all([0, 1, 2, 3].map(worker));
      await new Promise((r) => setTimeout(r, 300));

      const killedAt = Date.now();
      const old = await topology.killMaster();
      await topology.promotedAfter(old, 10_000);
      // Recovered: 20 consecutive successes after the last failure.
      const deadline = killedAt + 10_000;
      let streak = 0;
      while (Date.now() < deadline && streak < 20) {
        const r = await admin()
          .get('/auth/me')
          .set(bearer(tokens[0] as string));
        streak = r.status === 200 ? streak + 1 : 0;
        if (streak === 0) await new Promise((res) => setTimeout(res, 100));
      }
      stop = true;
      await traffic;
      const recoveredMs = Date.now() - killedAt;
      assert.equal(streak, 20, `requests did not succeed again within 10 s (seen ${JSON.stringify([...seen])})`);
      assert.ok(lastFailure === 0 || lastFailure - killedAt < 10_000, `503s for ${lastFailure - killedAt} ms`);
      assert.deepEqual(bad, [], 'only 200 or 503 in the envelope');
      assert.ok(recoveredMs < 12_000);

      for (const t of tokens) await admin().get('/auth/me').set(bearer(t)).expect(200);
      for (const t of loggedOut) await admin().get('/auth/me').set(bearer(t)).expect(401);
      // The promoted master has no replica left: acknowledged writes fail closed until one is back.
      const lonely = await login();
      assert.equal(lonely.status, 503, lonely.text);
      assert.equal(lonely.body.code, 50300);
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
    },
  );
});
