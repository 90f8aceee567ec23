import Redis from 'ioredis';
import type Koa from 'koa';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { BackgroundWork } from '../../src/application/shared/background-work';
import { createDirectories } from '../../src/main/directories';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';
import { loadConfig } from '../../src/main/config';
import { STORE_KINDS, testConfig } from '../support/apps';
import { emptyConfigDir } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';
import { bearer, mailsTo, memberTestbed, post, problem, resetTokenFor, type MemberTestbed } from '../support/member-accounts';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';

for (const kind of STORE_KINDS) {
  describe(`password reset over HTTP (${kind} store)`, function () {
    this.timeout(30000);
    let c: MemberTestbed;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      c = memberTestbed(kind, 'password-reset');
    });
    after(async () => c?.infra.dispose());

    let n = 0;
    /** A fresh client IP per request, so the per-IP limits stay out of the way unless a test is about them. */
    const ip = () => `10.8.${Math.floor(++n / 250)}.${n % 250}`;
    const member = async (username: string, email: string) =>
      post(c.web, '/auth/register', ip())
        .send({ username, password: `${username}-pass-11`, email })
        .expect(201);
    const login = (username: string, password: string) => post(c.web, '/auth/login', ip()).send({ username, password });
    const forgot = (email: string, from = ip()) => post(c.web, '/auth/forgot-password', from).send({ email });
    const reset = (token: string, newPassword: string) => post(c.web, '/auth/reset-password', ip()).send({ token, newPassword });
    const linkFor = async (email: string) => {
      await forgot(email).expect(202);
      await c.settle();
      return resetTokenFor(c.infra, email);
    };

    it('forgot-password answers a known and an unknown address alike (status, body, headers); only the known one is mailed', async () => {
      await member('kim', 'kim@example.org');
      const known = await forgot('KIM@example.org');
      const unknown = await forgot('nobody@example.org');
      assert.equal(known.status, 202);
      assert.equal(unknown.status, 202);
      assert.equal(known.text, unknown.text);
      assert.deepEqual(known.body, {
        accepted: true,
        detail: 'If an account has this address, a message with a reset link is on its way.',
      });
      const shape = (r: request.Response) =>
        Object.keys(r.headers)
          .filter((h) => !['date', 'x-request-id'].includes(h))
          .sort();
      assert.deepEqual(shape(known), shape(unknown));
      assert.equal(known.headers['content-length'], unknown.headers['content-length']);
      await c.settle();
      assert.equal(mailsTo(c.infra, 'nobody@example.org').length, 0);
      const [message] = mailsTo(c.infra, 'kim@example.org');
      assert.match(message?.subject ?? '', /reset/i);
      assert.match(message?.text ?? '', /http:\/\/localhost:8081\/reset-password\?token=[A-Za-z0-9_-]{43}\n/);
    });

    it('reset: the new password works, the old not; other sessions and refresh tokens are dead; the token is single use', async () => {
      await member('lee', 'lee@example.org');
      const phone = (await login('lee', 'lee-pass-11').expect(200)).body;
      const laptop = (await login('lee', 'lee-pass-11').expect(200)).body;
      const token = await linkFor('lee@example.org');
      c.clock.advance(1000);
      const done = await reset(token, 'brand-new-secret-1').expect(200);
      assert.deepEqual(done.body, { passwordReset: true, sessionsEnded: 2 });
      problem(await login('lee', 'lee-pass-11'), 401, 'bad-credentials');
      await login('lee', 'brand-new-secret-1').expect(200);
      for (const s of [phone, laptop]) {
        problem(await request(c.web.callback()).get('/user/profile').set(bearer(s.accessToken)), 401, 'token-invalid');
        const refreshed = await post(c.web, '/auth/refresh-token', ip()).send({ refreshToken: s.refreshToken });
        assert.equal(refreshed.status, 401, refreshed.text);
      }
      problem(await reset(token, 'another-secret-22'), 400, 'reset-token-invalid');
      await login('lee', 'brand-new-secret-1').expect(200);
    });

    it('only the newest link works; a refused password leaves it valid; unknown tokens are the same 400', async () => {
      await member('max', 'max@example.org');
      const first = await linkFor('max@example.org');
      const second = await linkFor('max@example.org');
      assert.notEqual(first, second);
      problem(await reset(first, 'brand-new-secret-1'), 400, 'reset-token-invalid');
      const refused = problem(await reset(second, 'max-pass-11'), 400, 'password-policy');
      assert.deepEqual([...new Set((refused.errors as Array<{ pointer: string }>).map((e) => e.pointer))], ['/newPassword']);
      problem(await reset(second, 'short'), 400, 'password-policy');
      await reset(second, 'brand-new-secret-1').expect(200);
      problem(await reset('x'.repeat(43), 'brand-new-secret-2'), 400, 'reset-token-invalid');
      problem(await reset('', 'brand-new-secret-2'), 400, 'validation-failed');
    });

    it('an expired link is refused', async () => {
      await member('ned', 'ned@example.org');
      const token = await linkFor('ned@example.org');
      c.clock.advance(1800 * 1000 + 1000);
      problem(await reset(token, 'brand-new-secret-1'), 400, 'reset-token-invalid');
    });

    it('20 forgot-password calls at once for one address (from 20 IPs) pass at most the per-address limit, and send as many', async () => {
      await member('oli', 'oli@example.org');
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forgot(i % 2 ? 'OLI@example.org' : 'oli@example.org')));
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 202).length, 5, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 15);
      await c.settle();
      assert.equal(mailsTo(c.infra, 'oli@example.org').filter((m) => m.subject === 'Reset your password').length, 5);
      // and per IP: 10 an hour
      const from = ip();
      for (let i = 0; i < 10; i++) await forgot(`ip-${i}@example.org`, from).expect(202);
      problem(await forgot('ip-10@example.org', from), 429, 'rate-limited');
    });

    it('of two concurrent uses of one token exactly one wins', async () => {
      await member('pia', 'pia@example.org');
      const token = await linkFor('pia@example.org');
      const [a, b] = await Promise.all([reset(token, 'brand-new-secret-1'), reset(token, 'brand-new-secret-2')]);
      assert.deepEqual([a.status, b.status].sort(), [200, 400]);
    });
  });
}

describe('password reset: one token, two app instances on one Redis', function () {
  this.timeout(30000);
  let close: () => Promise<void>;
  let webA: Koa;
  let webB: Koa;
  let settleA: () => Promise<void>;
  let infraA: Infrastructure;
  before(async function () {
    await requireRedis(this);
    const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1 }, 'redis');
    const keyPrefix = testKeyPrefix('reset-two');
    // Two processes' worth of infrastructure on one Redis (one key prefix) and one member directory, as a shared SQL one would be.
    const directories = createDirectories(config, silentLogger);
    const [a, b] = [0, 1].map(() => createInfrastructure(config, { log: silentLogger, keyPrefix, directories }));
    assert.ok(a && b);
    infraA = a;
    const [builtA, builtB] = [buildWebApp(config, a), buildWebApp(config, b)];
    [webA, webB] = [builtA.app, builtB.app];
    settleA = () => builtA.container.get(BackgroundWork).idle();
    close = async () => {
      await Promise.all([a.close(), b.close()]);
      const redis = new Redis(REDIS_URL);
      await deleteByPrefix(redis, keyPrefix);
      redis.disconnect();
    };
  });
  after(async () => close?.());

  it("sent to both at once: one 200, one 400 reset-token-invalid; the password set is the winner's", async () => {
    await post(webA, '/auth/register', '10.9.0.1')
      .send({ username: 'quinn', password: 'quinn-pass-11', email: 'quinn@example.org' })
      .expect(201);
    await post(webA, '/auth/forgot-password', '10.9.0.2').send({ email: 'quinn@example.org' }).expect(202);
    await settleA();
    const token = resetTokenFor(infraA, 'quinn@example.org');
    const [ra, rb] = await Promise.all([
      post(webA, '/auth/reset-password', '10.9.0.3').send({ token, newPassword: 'winner-on-a-111' }),
      post(webB, '/auth/reset-password', '10.9.0.4').send({ token, newPassword: 'winner-on-b-222' }),
    ]);
    assert.deepEqual([ra.status, rb.status].sort(), [200, 400], `${ra.text} ${rb.text}`);
    const loser = ra.status === 400 ? ra : rb;
    problem(loser, 400, 'reset-token-invalid');
    const winner = ra.status === 200 ? 'winner-on-a-111' : 'winner-on-b-222';
    const loserPassword = ra.status === 200 ? 'winner-on-b-222' : 'winner-on-a-111';
    await post(webB, '/auth/login', '10.9.0.5').send({ username: 'quinn', password: winner }).expect(200);
    problem(await post(webA, '/auth/login', '10.9.0.6').send({ username: 'quinn', password: loserPassword }), 401, 'bad-credentials');
  });
});

describe('prod without a mail server: the routes that mail answer 503 mail-unavailable', function () {
  this.timeout(30000);
  let redis: DisposableRedis;
  let infra: Infrastructure;
  let web: Koa;
  before(async function () {
    await requireRedisServer(this);
    redis = await DisposableRedis.create({ password: 'prod-like-redis-pw' });
    const config = loadConfig({ env: prodEnv({ SVC_REDIS_URL: redis.url, SVC_CRYPTO_WORKER_THREADS: '1' }), configDir: emptyConfigDir() });
    infra = createInfrastructure(config, { log: silentLogger });
    web = buildWebApp(config, infra).app;
  });
  after(async () => {
    await infra?.close().catch(() => undefined);
    await redis?.kill();
  });

  it('forgot-password, verify-email/send and a registration with an address: 503, before anything is looked up or created', async () => {
    problem(await request(web.callback()).post('/auth/forgot-password').send({ email: 'ann@example.org' }), 503, 'mail-unavailable');
    problem(await request(web.callback()).post('/auth/verify-email/send').send({ email: 'ann@example.org' }), 503, 'mail-unavailable');
    const body = { username: 'ann', password: 'member-pass-11', email: 'ann@example.org' };
    problem(await request(web.callback()).post('/auth/register').send(body), 503, 'mail-unavailable');
    problem(
      await request(web.callback()).post('/auth/login').send({ username: 'ann', password: 'member-pass-11' }),
      401,
      'bad-credentials',
    );
    // without an address the mail check does not apply: the embedded directory refuses writes in prod
    problem(
      await request(web.callback()).post('/auth/register').send({ username: 'ann', password: 'member-pass-11' }),
      409,
      'directory-read-only',
    );
  });
});
