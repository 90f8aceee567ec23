/**
 * The production profile: what refuses to start, and what a started prod app does not expose.
 * The apps are built from APP_PROFILE=prod with every secret supplied (test/support/prod-env.ts),
 * on a password-protected throw-away Redis. (Logs of a full flow holding no secret: test/http/logs.test.ts.)
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { TOKENS } from '../../src/application/tokens';
import { ConfigError, loadConfig } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth } from '../support/apps';
import { prodEnv } from '../support/prod-env';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ env });
  } catch (e) {
    assert.ok(e instanceof ConfigError, String(e));
    return [...e.problems];
  }
  return assert.fail('expected the prod configuration to be refused');
}

describe('production start', function () {
  this.timeout(30_000);

  describe('refuses to start', () => {
    it('with a 1024-bit RSA key (one problem, naming the key and the size)', () => {
      const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const problems = problemsOf(prodEnv({ SVC_RSA_PRIVATE_KEY: weak }));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.rsa-private-key \(SVC_RSA_PRIVATE_KEY\).*1024 bits/);
    });
    it('with the memory store, every secret being supplied', () => {
      const problems = problemsOf(prodEnv({ SVC_STORE: 'memory' }));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.store \(SVC_STORE\)/);
    });
    it('with a Redis URL without a password', () => {
      const problems = problemsOf(prodEnv({ SVC_REDIS_URL: 'redis://127.0.0.1:6379' }));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /password/);
    });
    // Each missing secret alone: test/unit/config.test.ts ("refuses to start when only ... is missing");
    // the process exit with every missing key named: test/e2e/start.test.ts.
  });

  describe('a started prod app (every secret supplied, password-protected Redis)', () => {
    let redis: DisposableRedis;
    let infra: Infrastructure;
    let apps: ReturnType<typeof buildBoth>;
    const formats = { admin: 'envelope', web: 'problem' } as const;

    before(async function () {
      await requireRedisServer(this);
      redis = await DisposableRedis.create({ password: 'prod-like-redis-pw' });
      const config = loadConfig({ env: prodEnv({ SVC_REDIS_URL: redis.url, SVC_CRYPTO_WORKER_THREADS: '1' }) });
      assert.equal(config.profile, 'prod');
      infra = createInfrastructure(config, { log: silentLogger });
      apps = buildBoth(config, infra);
    });
    after(async () => {
      await infra?.close().catch(() => undefined);
      await redis?.kill();
    });

    function assertNotFound(
      app: 'admin' | 'web',
      res: { status: number; headers: Record<string, string>; text: string },
      what: string,
    ): void {
      assert.equal(res.status, 404, `${app} ${what}: ${res.status}`);
      const body = JSON.parse(res.text) as Record<string, unknown>;
      if (formats[app] === 'envelope') assert.equal(body.code, 40400, what);
      else {
        assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(body.status, 404, what);
      }
    }

    for (const app of ['admin', 'web'] as const) {
      it(`${app}: API docs, unexposed actuator endpoints, example handlers and the dev mailbox answer 404`, async () => {
        const cb = apps[app].app.callback();
        const hidden: Array<['get' | 'post', string]> = [
          ['get', '/v3/api-docs'],
          ['get', '/swagger-ui'],
          ['get', '/swagger-ui/index.html'],
          ['get', '/actuator/prometheus'],
          ['get', '/actuator/env'],
          ['get', '/actuator/beans'],
          ['get', '/actuator/heapdump'],
          ['post', '/open/echo'],
          ['get', '/examples/echo'],
          ...(app === 'admin'
            ? [['post', '/examples/notices'] as ['post', string]]
            : [
                ['post', '/orders'] as ['post', string],
                ['post', '/payments'] as ['post', string],
                ['get', '/dev/mailbox'] as ['get', string],
              ]),
        ];
        for (const [method, path] of hidden)
          assertNotFound(app, (await request(cb)[method](path).send({})) as never, `${method.toUpperCase()} ${path}`);
        const mounted = apps[app].routes.map((r) => r.path);
        for (const p of [
          '/open/echo',
          '/examples/echo',
          '/examples/notices',
          '/orders',
          '/payments',
          '/v3/api-docs',
          '/swagger-ui',
          '/actuator/prometheus',
          '/dev/mailbox',
        ]) {
          assert.ok(!mounted.some((m) => m === p || m.startsWith(`${p}/`)), `${p} is not mounted in prod`);
        }
      });

      it(`${app}: health and info are exposed; health shows the status only`, async () => {
        const cb = apps[app].app.callback();
        const health = await request(cb).get('/actuator/health').expect(200);
        assert.deepEqual(health.body, { status: 'UP' });
        await request(cb).get('/actuator/health/readiness').expect(200);
        const info = await request(cb).get('/actuator/info').expect(200);
        assert.deepEqual(Object.keys(info.body), ['app'], 'name and version only: no profile, start time or Node version');
        assert.deepEqual(Object.keys(info.body.app).sort(), ['name', 'version']);
        assert.equal(info.body.app.name, 'authguard');
        assert.match(info.body.app.version, /^\d+\.\d+\.\d+/);
        assert.ok(!info.text.includes(process.version), 'no Node version anywhere');
      });
    }

    it('web: registration answers 409 directory-read-only (a file directory cannot keep a change in prod), writing nothing', async () => {
      const cb = apps.web.app.callback();
      const res = await request(cb).post('/auth/register').send({ username: 'newcomer', password: 'some-pass-123' }).expect(409);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      const body = JSON.parse(res.text) as { code: string; status: number; detail: string };
      assert.deepEqual([body.code, body.status], ['directory-read-only', 409]);
      assert.match(body.detail, /svc\.directory=sql/);
      assert.equal(await apps.web.container.get(TOKENS.UserDirectory).findByUsername('newcomer'), null);
      await assert.rejects(
        apps.admin.container.get(TOKENS.AccountStore).setStatus('1', { enabled: true }),
        (e: { reason?: string }) => e.reason === 'directory-read-only',
        "the admin app's account changes refuse too",
      );
    });

    it('admin: no demo accounts and the captcha is on', async () => {
      const cb = apps.admin.app.callback();
      const cfg = await request(cb).get('/auth/getConfig').expect(200);
      assert.equal(cfg.body.data.captchaEnabled, true);
      const noCaptcha = await request(cb).post('/auth/login').send({ username: 'admin', password: 'YWRtaW4xMjM=' });
      assert.equal(noCaptcha.status, 400);
      assert.equal(noCaptcha.body.code, 40010, 'captcha-missing');
      const users = apps.admin.container.get(TOKENS.UserDirectory);
      assert.equal(await users.findByUsername('admin'), null, 'prod seeds no demo accounts');
    });
  });
});
