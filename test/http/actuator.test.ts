import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { prodEnv } from '../support/prod-env';
import { sample } from '../support/prometheus';
import { requireRedis } from '../support/services';

/** Every line is a comment, blank, or `name{labels} value` (the Prometheus text format). */
function assertPrometheusText(text: string): void {
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    assert.match(
      line,
      /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|[Nn]a[Nn]|\+Inf|-Inf)$/,
      `bad line: ${line}`,
    );
  }
}

for (const kind of STORE_KINDS) {
  describe(`actuator (${kind} store)`, function () {
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({}, kind);
      infra = testInfra(config, { label: 'actuator' });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    for (const name of ['admin', 'web'] as const) {
      it(`${name}: health is UP with the store component and its details (dev/test)`, async () => {
        const res = await request(apps[name].app.callback()).get('/actuator/health').expect(200);
        assert.match(res.headers['content-type'] ?? '', /^application\/json/);
        assert.equal(res.body.status, 'UP');
        assert.equal(res.body.components.store.status, 'UP');
        assert.equal(res.body.components.store.details.kind, kind);
        assert.equal(typeof res.body.components.store.details.latencyMs, 'number');
        await request(apps[name].app.callback()).get('/actuator/health/liveness').expect(200, { status: 'UP' });
        const ready = await request(apps[name].app.callback()).get('/actuator/health/readiness').expect(200);
        assert.equal(ready.body.status, 'UP');
      });

      it(`${name}: info has name, version, profile and start time`, async () => {
        const res = await request(apps[name].app.callback()).get('/actuator/info').expect(200);
        assert.equal(res.body.app.name, 'authguard');
        assert.match(res.body.app.version, /^\d+\.\d+\.\d+/);
        assert.equal(res.body.profile, 'test');
        assert.ok(!Number.isNaN(Date.parse(res.body.startTime)));
      });
    }

    it('prometheus: valid text with request durations by route template and status, store latency and process metrics', async () => {
      const admin = apps.admin.app.callback();
      const { token } = await apps.admin.container
        .get(SessionManagers)
        .get('admin')
        .login({ userId: '1', username: 'a', roles: [], permissions: [] });
      await request(admin).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      await request(admin).get('/auth/me').expect(401);
      await request(admin).get('/nope/123').expect(404);
      const res = await request(admin).get('/actuator/prometheus').expect(200);
      assert.match(res.headers['content-type'] ?? '', /^text\/plain; version=0\.0\.4/);
      assertPrometheusText(res.text);
      const count = (route: string, status: string) =>
        sample(res.text, 'http_server_request_duration_seconds_count', { app: 'admin', method: 'GET', route, status });
      assert.equal(count('/auth/me', '200'), 1);
      assert.equal(count('/auth/me', '401'), 1);
      assert.equal(count('unmatched', '404'), 1);
      assert.ok(
        (sample(res.text, 'authguard_store_call_duration_seconds_count', {
          app: 'admin',
          store: 'session',
          operation: 'getSession',
          outcome: 'ok',
        }) ?? 0) >= 1,
      );
      assert.match(res.text, /^nodejs_eventloop_lag_seconds /m);
      for (const m of [
        'authguard_logins_total',
        'authguard_rate_limit_rejections_total',
        'authguard_signature_failures_total',
        'authguard_idempotency_conflicts_total',
      ]) {
        assert.match(res.text, new RegExp(`^# TYPE ${m} counter$`, 'm'));
      }
      // the web app's registry is its own
      const web = await request(apps.web.app.callback()).get('/actuator/prometheus').expect(200);
      assert.equal(
        sample(web.text, 'http_server_request_duration_seconds_count', { app: 'web', method: 'GET', route: '/auth/me', status: '200' }),
        undefined,
      );
    });
  });
}

describe('actuator exposure', () => {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.actuator.exposure': 'health,info', 'svc.actuator.show-details': 'false' });
    infra = testInfra(config, { label: 'actuator-prod' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  it('defaults: dev/test expose everything with details; prod health (status only) and info', () => {
    const dev = loadConfig({ env: { APP_PROFILE: 'dev' } });
    assert.deepEqual([...dev.actuator.exposure].sort(), ['health', 'info', 'prometheus']);
    assert.equal(dev.actuator.showDetails, true);
    const prod = loadConfig({
      env: prodEnv(),
    });
    assert.deepEqual([...prod.actuator.exposure].sort(), ['health', 'info']);
    assert.equal(prod.actuator.showDetails, false);
  });

  it('rejects an unknown endpoint name, naming the key', () => {
    assert.throws(() => testConfig({ 'svc.actuator.exposure': 'health,beans' }), /svc\.actuator\.exposure/);
  });

  it('health without details is the status only', async () => {
    for (const app of [apps.admin.app, apps.web.app]) {
      await request(app.callback()).get('/actuator/health').expect(200, { status: 'UP' });
      await request(app.callback()).get('/actuator/health/readiness').expect(200, { status: 'UP' });
      await request(app.callback()).get('/actuator/info').expect(200);
    }
  });

  it('an unexposed endpoint is a 404 in the app format', async () => {
    const a = await request(apps.admin.app.callback()).get('/actuator/prometheus').expect(404);
    assert.equal(a.body.code, 40400);
    const w = await request(apps.web.app.callback()).get('/actuator/prometheus').expect(404);
    assert.match(w.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(JSON.parse(w.text).code, 'not-found');
  });
});

describe('actuator while the store is unreachable', () => {
  let apps: ReturnType<typeof buildBoth>;
  let close: () => Promise<void>;
  before(() => {
    const config = testConfig({ 'svc.store': 'redis', 'svc.redis.url': 'redis://127.0.0.1:1', 'svc.redis.command-timeout-ms': 100 });
    const infra = createInfrastructure(config, { log: silentLogger });
    close = () => infra.close();
    apps = buildBoth(config, infra);
  });
  after(async () => close?.());

  it('readiness and health are DOWN (503) with the store component DOWN; liveness stays UP', async () => {
    for (const app of [apps.admin.app, apps.web.app]) {
      const ready = await request(app.callback()).get('/actuator/health/readiness').expect(503);
      assert.equal(ready.body.status, 'DOWN');
      assert.equal(ready.body.components.store.status, 'DOWN');
      const health = await request(app.callback()).get('/actuator/health').expect(503);
      assert.equal(health.body.status, 'DOWN');
      await request(app.callback()).get('/actuator/health/liveness').expect(200, { status: 'UP' });
    }
  });
});
