import type Koa from 'koa';
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import 'reflect-metadata';
import request from 'supertest';
import { parseCidrList } from '../../src/adapters/koa/client-ip';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { ProblemResponder } from '../../src/adapters/koa/responders';
import { route, type RouteDef } from '../../src/adapters/koa/routes';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { formatDateTime } from '../../src/application/shared/date-time';
import type { AppConfig, ConfigKey } from '../../src/main/config';
import { authGuardsOf } from '../../src/main/container';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REFRESH_TOKEN = /^\d{13}\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{32}$/;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

interface Ctx {
  infra: TestInfra;
  config: AppConfig;
  web: Koa;
  admin: Koa;
  built: ReturnType<typeof buildBoth>;
  clock: FakeClock;
}

async function setup(kind: StoreKind, label: string, overrides: Partial<Record<ConfigKey, unknown>> = {}): Promise<Ctx> {
  const clock = new FakeClock(Date.now());
  // supertest connects from loopback: trusting it lets each test pick its client IP with X-Forwarded-For
  const config = testConfig(
    { 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides },
    kind,
  );
  const infra = testInfra(config, { clock, label });
  const built = buildBoth(config, infra);
  return { infra, config, web: built.web.app, admin: built.admin.app, built, clock };
}

const post = (app: Koa, path: string, ip: string) => request(app.callback()).post(path).set('X-Forwarded-For', ip);

function webLogin(c: Ctx, username: string, password: string, ip = '10.1.0.1', ua = 'test-agent') {
  return post(c.web, '/auth/login', ip).set('User-Agent', ua).send({ username, password });
}

function register(c: Ctx, body: Record<string, unknown>, ip = '10.2.0.1') {
  return post(c.web, '/auth/register', ip).send(body);
}

/** Parses a problem answer and checks the RFC 9457 members every web error must carry. */
function problem(res: request.Response, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, `${res.status} ${res.text.slice(0, 300)}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(body.type, `http://localhost:8081/problems/${code}`);
  assert.equal(body.title, ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].title);
  assert.equal(typeof body.detail, 'string');
  assert.ok((body.detail as string).length > 0);
  assert.equal(body.instance, `urn:request:${res.headers['x-request-id']}`);
  return body;
}

for (const kind of STORE_KINDS) {
  describe(`web app over HTTP (${kind} store)`, function () {
    this.timeout(30000);

    describe('members: register, login, sessions, logout', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'web-members');
      });
      after(async () => c?.infra.dispose());

      it('register -> login -> profile -> second login -> two sessions -> end one -> logout-all', async () => {
        const reg = await register(c, { username: 'bob.smith', password: 'bob-pass-123', nickname: 'Bob' }).expect(201);
        assert.match(reg.headers['content-type'] ?? '', /^application\/json/);
        assert.deepEqual(Object.keys(reg.body).sort(), ['email', 'emailVerified', 'userId', 'username']);
        assert.equal(reg.body.username, 'bob.smith');
        assert.match(reg.headers['ratelimit-policy'] ?? '', /^"register";q=10;w=3600$/);

        const first = await webLogin(c, 'bob.smith', 'bob-pass-123', '10.1.0.1', 'phone').expect(200);
        assert.deepEqual(Object.keys(first.body).sort(), ['accessToken', 'expires', 'refreshToken'], 'plain JSON, no envelope');
        assert.match(first.body.accessToken, UUID);
        assert.match(first.body.refreshToken, REFRESH_TOKEN);
        assert.equal(first.body.expires, formatDateTime(c.clock.now() + 604800 * 1000, 'UTC'));
        assert.match(first.headers['ratelimit-policy'] ?? '', /^"login";q=5;w=60$/);

        const profile = await request(c.web.callback()).get('/user/profile').set(bearer(first.body.accessToken)).expect(200);
        assert.deepEqual(profile.body, { userId: reg.body.userId, username: 'bob.smith', nickname: 'Bob' });

        c.clock.advance(1000);
        const second = (await webLogin(c, 'bob.smith', 'bob-pass-123', '10.1.0.2', 'laptop').expect(200)).body;
        const list = await request(c.web.callback()).get('/user/sessions').set(bearer(second.accessToken)).expect(200);
        assert.equal(list.body.length, 2);
        const [phone, laptop] = list.body as Array<Record<string, unknown>>;
        assert.ok(phone && laptop);
        assert.deepEqual(Object.keys(phone).sort(), [
          'current',
          'deviceType',
          'expires',
          'ipaddr',
          'lastActiveTime',
          'loginTime',
          'tokenId',
          'userAgent',
        ]);
        assert.deepEqual([phone.ipaddr, phone.userAgent, phone.current], ['10.1.0.1', 'phone', false]);
        assert.deepEqual([laptop.ipaddr, laptop.userAgent, laptop.current], ['10.1.0.2', 'laptop', true]);
        assert.match(String(phone.tokenId), /^[0-9a-f]{32}$/);
        assert.equal(list.headers['x-total-count'], '2', 'the bare array (no page, no size) says how many there are');
        const paged = await request(c.web.callback()).get('/user/sessions?page=2&size=1').set(bearer(second.accessToken)).expect(200);
        assert.deepEqual(paged.body, { list: [laptop], total: 2, page: 2, size: 1 }, 'with page or size: a page and the exact total');
        problem(await request(c.web.callback()).get('/user/sessions?size=501').set(bearer(second.accessToken)), 400, 'validation-failed');

        // end the phone's session from the laptop: its access and refresh token die
        const del = await request(c.web.callback()).delete(`/user/sessions/${phone.tokenId}`).set(bearer(second.accessToken)).expect(204);
        assert.equal(del.text, '');
        problem(await request(c.web.callback()).get('/user/profile').set(bearer(first.body.accessToken)), 401, 'token-invalid');
        problem(
          await post(c.web, '/auth/refresh-token', '10.1.0.1').send({ refreshToken: first.body.refreshToken }),
          401,
          'refresh-token-invalid',
        );
        const after = await request(c.web.callback()).get('/user/sessions').set(bearer(second.accessToken)).expect(200);
        assert.deepEqual(
          (after.body as Array<{ tokenId: string }>).map((s) => s.tokenId),
          [laptop.tokenId],
        );
        // ending it again: no such session
        problem(
          await request(c.web.callback()).delete(`/user/sessions/${phone.tokenId}`).set(bearer(second.accessToken)),
          404,
          'not-found',
        );

        // logout-all: every session and every refresh token of the member
        const third = (await webLogin(c, 'bob.smith', 'bob-pass-123', '10.1.0.3', 'tablet').expect(200)).body;
        const all = await request(c.web.callback()).post('/user/logout-all').set(bearer(third.accessToken)).expect(200);
        assert.deepEqual(all.body, { endedSessions: 2 });
        for (const t of [first.body.accessToken, second.accessToken, third.accessToken]) {
          problem(await request(c.web.callback()).get('/user/profile').set(bearer(t)), 401, 'token-invalid');
        }
        for (const r of [second.refreshToken, third.refreshToken]) {
          const res = await post(c.web, '/auth/refresh-token', '10.1.0.3').send({ refreshToken: r });
          assert.equal(res.status, 401);
        }
        // the account itself still works
        await webLogin(c, 'bob.smith', 'bob-pass-123', '10.1.0.4').expect(200);
      });

      it('refresh rotates, the old access token dies, reuse revokes the family; logout ends the token', async () => {
        const d = (await webLogin(c, 'alice', 'alice-pass-123', '10.1.1.1').expect(200)).body;
        c.clock.advance(1000);
        const r1 = await post(c.web, '/auth/refresh-token', '10.1.1.1').send({ refreshToken: d.refreshToken }).expect(200);
        assert.deepEqual(Object.keys(r1.body).sort(), ['accessToken', 'expires', 'refreshToken']);
        assert.match(r1.body.accessToken, UUID);
        assert.match(r1.body.refreshToken, REFRESH_TOKEN);
        assert.notEqual(r1.body.refreshToken, d.refreshToken);
        problem(await request(c.web.callback()).get('/user/profile').set(bearer(d.accessToken)), 401, 'token-invalid');
        await request(c.web.callback()).get('/user/profile').set(bearer(r1.body.accessToken)).expect(200);

        c.clock.advance(3000); // past the concurrent-duplicate grace
        problem(await post(c.web, '/auth/refresh-token', '10.1.1.1').send({ refreshToken: d.refreshToken }), 401, 'refresh-token-reused');
        problem(await request(c.web.callback()).get('/user/profile').set(bearer(r1.body.accessToken)), 401, 'token-invalid');
        const r2 = await post(c.web, '/auth/refresh-token', '10.1.1.1').send({ refreshToken: r1.body.refreshToken });
        assert.equal(r2.status, 401);

        const again = (await webLogin(c, 'alice', 'alice-pass-123', '10.1.1.2').expect(200)).body;
        const out = await post(c.web, '/auth/logout', '10.1.1.2').set(bearer(again.accessToken)).expect(200);
        assert.deepEqual(out.body, { loggedOut: true, userId: '1' });
        problem(await request(c.web.callback()).get('/user/profile').set(bearer(again.accessToken)), 401, 'token-invalid');
        problem(
          await post(c.web, '/auth/refresh-token', '10.1.1.2').send({ refreshToken: again.refreshToken }),
          401,
          'refresh-token-invalid',
        );
      });

      it("another member's session id is 404, exactly like an unknown one, and stays alive", async () => {
        const a = (await webLogin(c, 'alice', 'alice-pass-123', '10.1.2.1').expect(200)).body;
        await register(c, { username: 'carol', password: 'carol-pass-123' }, '10.2.2.1').expect(201);
        const b = (await webLogin(c, 'carol', 'carol-pass-123', '10.1.2.2').expect(200)).body;
        const aliceId = (
          (await request(c.web.callback()).get('/user/sessions').set(bearer(a.accessToken)).expect(200)).body as Array<{
            tokenId: string;
            current: boolean;
          }>
        ).find((s) => s.current)?.tokenId;
        assert.ok(aliceId);
        const foreign = problem(
          await request(c.web.callback()).delete(`/user/sessions/${aliceId}`).set(bearer(b.accessToken)),
          404,
          'not-found',
        );
        const unknown = problem(
          await request(c.web.callback()).delete('/user/sessions/0123456789abcdef').set(bearer(b.accessToken)),
          404,
          'not-found',
        );
        assert.equal(foreign.detail, unknown.detail);
        problem(await request(c.web.callback()).delete('/user/sessions/not-a-token-id').set(bearer(b.accessToken)), 404, 'not-found');
        await request(c.web.callback()).get('/user/profile').set(bearer(a.accessToken)).expect(200);
        // carol's logout-all leaves alice alone
        await request(c.web.callback()).post('/user/logout-all').set(bearer(b.accessToken)).expect(200);
        await request(c.web.callback()).get('/user/profile').set(bearer(a.accessToken)).expect(200);
        // and the user routes need a web login
        problem(await request(c.web.callback()).get('/user/sessions'), 401, 'token-missing');
        problem(await request(c.web.callback()).post('/user/logout-all'), 401, 'token-missing');
        problem(await request(c.web.callback()).delete(`/user/sessions/${aliceId}`), 401, 'token-missing');
      });

      it('registration rules: every field problem at once, with JSON pointers; nothing is created', async () => {
        const res = await register(c, { username: 'a!', password: 'short', nickname: '   ' }, '10.2.3.1');
        const body = problem(res, 400, 'validation-failed');
        const errors = body.errors as Array<{ pointer: string; detail: string }>;
        // The password's rules are the password policy's, applied to a well-formed body (next test).
        assert.deepEqual(errors.map((e) => e.pointer).sort(), ['/nickname', '/username']);

        const cases: Array<[Record<string, unknown>, string, RegExp]> = [
          [{ username: 'ab', password: 'long-enough-1' }, '/username', /3-32/],
          [{ username: 'x'.repeat(33), password: 'long-enough-1' }, '/username', /3-32/],
          [{ username: 'zoë', password: 'long-enough-1' }, '/username', /3-32/],
          [{ username: 'dave', password: 12345678 }, '/password', /string/i],
          [{ username: 'dave', password: 'long-enough-1', roles: ['admin'] }, '/', /roles/],
        ];
        for (const [input, pointer, detail] of cases) {
          const r = problem(await register(c, input, '10.2.3.2'), 400, 'validation-failed');
          const e = (r.errors as Array<{ pointer: string; detail: string }>).find((x) => x.pointer === pointer);
          assert.ok(e, `${JSON.stringify(input)} -> ${JSON.stringify(r.errors)}`);
          assert.match(e.detail, detail);
        }
        problem(await webLogin(c, 'dave', 'long-enough-1', '10.1.3.1'), 401, 'bad-credentials');
      });

      it('the password policy: 400 password-policy listing every rule broken under /password; nothing is created', async () => {
        const cases: Array<[string, string, string[]]> = [
          ['dave', 'short', ['must be at least 8 characters']],
          ['dave', 'p'.repeat(65), ['must be at most 64 characters']],
          // 30 characters but 90 UTF-8 bytes: BCrypt would silently read only the first 72
          ['dave', '€'.repeat(30), ['must be at most 72 bytes in UTF-8 (BCrypt reads no further)']],
          ['dave.smith', 'DAVE.SMITH', ['must not be the username']],
          ['dave', 'iloveyou', ['must not be a common or breached password']],
          ['password1', 'Password1', ['must not be the username', 'must not be a common or breached password']],
        ];
        for (const [username, password, details] of cases) {
          const r = problem(await register(c, { username, password }, '10.2.3.4'), 400, 'password-policy');
          assert.deepEqual(
            r.errors,
            details.map((detail) => ({ pointer: '/password', detail })),
            password,
          );
          assert.equal(await c.infra.directories.members.findByUsername(username), null, username);
        }
        // 64 characters and exactly 72 bytes is fine (8 two-byte characters + 56 ASCII)
        const edge = 'é'.repeat(8) + 'p'.repeat(56);
        await register(c, { username: 'dave', password: edge }, '10.2.3.3').expect(201);
        await webLogin(c, 'dave', edge, '10.1.3.2').expect(200);
      });

      it('a taken username is 409 and leaves the first account untouched', async () => {
        const dup = problem(await register(c, { username: 'alice', password: 'another-pass-1' }, '10.2.4.1'), 409, 'username-taken');
        assert.match(String(dup.detail), /alice/);
        await webLogin(c, 'alice', 'alice-pass-123', '10.1.4.1').expect(200);
        problem(await webLogin(c, 'alice', 'another-pass-1', '10.1.4.2'), 401, 'bad-credentials');
      });

      it('registration is limited to 10 per hour per client IP', async () => {
        for (let i = 0; i < 10; i++) await register(c, { username: 'x' }, '10.2.5.1').expect(400);
        const limited = problem(await register(c, { username: 'eve', password: 'eve-pass-123' }, '10.2.5.1'), 429, 'rate-limited');
        assert.ok(limited);
        const res = await register(c, { username: 'eve', password: 'eve-pass-123' }, '10.2.5.1');
        assert.ok(Number(res.headers['retry-after']) > 3000, 'about an hour');
        await register(c, { username: 'eve', password: 'eve-pass-123' }, '10.2.5.2').expect(201);
        c.clock.advance(3600 * 1000 + 1000);
        await register(c, { username: 'eve2', password: 'eve-pass-123' }, '10.2.5.1').expect(201);
      });

      it('login failures look the same for unknown users and wrong passwords; over-long passwords fail alike', async () => {
        const a = problem(await webLogin(c, 'nobody', 'alice-pass-123', '10.1.5.1'), 401, 'bad-credentials');
        const b = problem(await webLogin(c, 'alice', 'wrong-password', '10.1.5.2'), 401, 'bad-credentials');
        const l = problem(await webLogin(c, 'alice', 'alice-pass-123' + 'x'.repeat(80), '10.1.5.3'), 401, 'bad-credentials');
        for (const r of [a, b, l]) delete r.instance;
        assert.deepEqual(a, b);
        assert.deepEqual(a, l);
        const res = await webLogin(c, 'nobody', 'x', '10.1.5.4');
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="web"');
        problem(
          await post(c.web, '/auth/login', '10.1.5.5').send({ username: 'alice', password: 'alice-pass-123', role: 'admin' }),
          400,
          'validation-failed',
        );
      });

      it('login: 5 per 60 s per IP, then 429 with Retry-After; other IPs unaffected', async () => {
        for (let i = 0; i < 5; i++) await webLogin(c, 'nobody', 'wrong-pass', '10.1.6.1').expect(401);
        const res = await webLogin(c, 'alice', 'alice-pass-123', '10.1.6.1');
        problem(res, 429, 'rate-limited');
        assert.ok(Number(res.headers['retry-after']) >= 1);
        await webLogin(c, 'alice', 'alice-pass-123', '10.1.6.2').expect(200);
      });
    });

    describe('per-account failure cap', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'web-lock', { 'svc.login.max-failures': 3 });
      });
      after(async () => c?.infra.dispose());

      it(
        'locks a username (known or not) after the cap for clients without a device cookie (428 ' +
          'captcha-required), separately from admin, until the lock ends',
        async () => {
          for (let i = 0; i < 3; i++) await webLogin(c, 'alice', 'wrong-pass', `10.3.0.${i + 1}`).expect(401);
          const locked = await webLogin(c, 'alice', 'alice-pass-123', '10.3.0.9');
          problem(locked, 428, 'captcha-required');
          assert.ok(Number(locked.headers['retry-after']) > 800);
          for (let i = 0; i < 3; i++) await webLogin(c, 'ghost', 'wrong-pass', `10.3.1.${i + 1}`).expect(401);
          problem(await webLogin(c, 'ghost', 'wrong-pass', '10.3.1.9'), 428, 'captcha-required');
          c.clock.advance(3600 * 1000 + 1000); // svc.login.hard-lock-seconds after the last failure
          await webLogin(c, 'alice', 'alice-pass-123', '10.3.0.10').expect(200);
        },
      );
    });

    describe('login types are independent (real logins on both apps)', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'web-cross');
      });
      after(async () => c?.infra.dispose());

      it('an admin token is invalid on the web app and a web token on the admin app, for the same user id', async () => {
        const cfg = await request(c.admin.callback()).get('/auth/getConfig').expect(200);
        const pw = publicEncrypt(
          { key: cfg.body.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from('admin123'),
        ).toString('base64');
        const admin = (await post(c.admin, '/auth/login', '10.4.0.1').send({ username: 'admin', password: pw }).expect(200)).body.data;
        const web = (await webLogin(c, 'alice', 'alice-pass-123', '10.4.0.2').expect(200)).body;
        const me = await request(c.admin.callback()).get('/auth/me').set(bearer(admin.accessToken)).expect(200);
        const profile = await request(c.web.callback()).get('/user/profile').set(bearer(web.accessToken)).expect(200);
        assert.equal(me.body.data.userId, profile.body.userId, 'both are user id 1');

        const onWeb = await request(c.web.callback()).get('/user/profile').set(bearer(admin.accessToken));
        problem(onWeb, 401, 'token-invalid');
        assert.match(onWeb.headers['www-authenticate'] ?? '', /^Bearer realm="web", error="invalid_token"/);
        const onAdmin = await request(c.admin.callback()).get('/auth/me').set(bearer(web.accessToken)).expect(401);
        assert.equal(onAdmin.body.code, 40102);
        problem(await request(c.web.callback()).get('/user/sessions').set(bearer(admin.accessToken)), 401, 'token-invalid');
        assert.equal((await request(c.admin.callback()).get('/monitor/online').set(bearer(web.accessToken)).expect(401)).body.code, 40102);

        // refresh tokens and logout do not cross either
        problem(
          await post(c.web, '/auth/refresh-token', '10.4.0.3').send({ refreshToken: admin.refreshToken }),
          401,
          'refresh-token-invalid',
        );
        assert.equal(
          (await post(c.admin, '/auth/refresh-token', '10.4.0.3').send({ refreshToken: web.refreshToken }).expect(401)).body.code,
          40111,
        );
        problem(await post(c.web, '/auth/logout', '10.4.0.3').set(bearer(admin.accessToken)), 401, 'token-invalid');
        // admin credentials are not member credentials
        problem(await webLogin(c, 'admin', 'admin123', '10.4.0.4'), 401, 'bad-credentials');
        // both sessions are still alive
        await request(c.admin.callback()).get('/auth/me').set(bearer(admin.accessToken)).expect(200);
        await request(c.web.callback()).get('/user/profile').set(bearer(web.accessToken)).expect(200);
        // a web member's logout-all does not touch the admin session of the same id
        await request(c.web.callback()).post('/user/logout-all').set(bearer(web.accessToken)).expect(200);
        await request(c.admin.callback()).get('/auth/me').set(bearer(admin.accessToken)).expect(200);
      });
    });
  });
}

for (const kind of STORE_KINDS) {
  describe(`every error status of the web app is RFC 9457 (${kind} store)`, function () {
    this.timeout(30000);
    let c: Ctx;
    let app: Koa;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      c = await setup(kind, 'web-statuses', { 'svc.body-limit-bytes': 4096 });
      const g = authGuardsOf(c.built.web.container);
      // The real web routes plus two probes for what no real web route answers (403, 500).
      const probes: RouteDef[] = [
        route({
          method: 'get',
          path: '/probe/staff',
          summary: 'permission',
          response: z.record(z.unknown()),
          guards: [g.requireLogin('web'), g.requirePermission('web', 'staff:area:view')],
          handler: async () => ({ ok: true }),
        }),
        route({
          method: 'get',
          path: '/probe/boom',
          summary: 'throws',
          response: z.record(z.unknown()),
          handler: async () => {
            throw new Error('secret internal detail');
          },
        }),
      ];
      app = createHttpApp({
        realm: 'web',
        responder: new ProblemResponder(c.config.problemBaseUri),
        routes: [...c.built.web.routes, ...probes],
        trustedProxies: parseCidrList(c.config.trustedProxies),
        bodyLimitBytes: c.config.bodyLimitBytes,
        log: silentLogger,
      });
    });
    after(async () => c?.infra.dispose());

    it('400 (with errors[]), 401 (with WWW-Authenticate), 403, 404, 405, 409, 413, 415, 429, 500', async () => {
      const cb = () => request(app.callback());
      const token = (
        await cb()
          .post('/auth/login')
          .set('X-Forwarded-For', '10.5.0.1')
          .send({ username: 'alice', password: 'alice-pass-123' })
          .expect(200)
      ).body.accessToken as string;

      const v = problem(
        await cb().post('/auth/register').set('X-Forwarded-For', '10.5.1.1').send({ username: 'ok-name', password: 'short' }),
        400,
        'password-policy',
      );
      assert.deepEqual(v.errors, [{ pointer: '/password', detail: 'must be at least 8 characters' }]);
      const malformed = problem(
        await cb().post('/auth/register').set('X-Forwarded-For', '10.5.1.1').send({ username: 'ok-name', password: 12345678 }),
        400,
        'validation-failed',
      );
      assert.deepEqual(malformed.errors, [{ pointer: '/password', detail: 'Expected string, received number' }]);
      problem(
        await cb().post('/auth/login').set('X-Forwarded-For', '10.5.1.2').set('Content-Type', 'application/json').send('{"username":'),
        400,
        'malformed-json',
      );

      const none = await cb().get('/user/profile');
      problem(none, 401, 'token-missing');
      assert.equal(none.headers['www-authenticate'], 'Bearer realm="web"');
      const bad = await cb().get('/user/profile').set(bearer('0b5e6c39-1b0e-4b8f-9d0a-2f4c1e8b7a61'));
      problem(bad, 401, 'token-invalid');
      assert.match(bad.headers['www-authenticate'] ?? '', /^Bearer realm="web", error="invalid_token"/);
      const creds = await cb().post('/auth/login').set('X-Forwarded-For', '10.5.1.3').send({ username: 'alice', password: 'nope-nope' });
      problem(creds, 401, 'bad-credentials');
      assert.equal(creds.headers['www-authenticate'], 'Bearer realm="web"');

      problem(await cb().get('/probe/staff').set(bearer(token)), 403, 'permission-denied');
      problem(await cb().get('/no/such/route'), 404, 'not-found');
      problem(await cb().put('/user/profile').set(bearer(token)), 405, 'method-not-allowed');
      problem(
        await cb().post('/auth/register').set('X-Forwarded-For', '10.5.1.4').send({ username: 'alice', password: 'alice-pass-999' }),
        409,
        'username-taken',
      );
      problem(
        await cb()
          .post('/auth/register')
          .set('X-Forwarded-For', '10.5.1.5')
          .send({ username: 'big', password: 'x'.repeat(8000) }),
        413,
        'payload-too-large',
      );
      problem(
        await cb().post('/auth/login').set('X-Forwarded-For', '10.5.1.6').set('Content-Type', 'text/plain').send('alice:alice-pass-123'),
        415,
        'unsupported-media-type',
      );
      for (let i = 0; i < 5; i++)
        await cb().post('/auth/login').set('X-Forwarded-For', '10.5.1.7').send({ username: 'alice', password: 'nope-nope' }).expect(401);
      const limited = await cb()
        .post('/auth/login')
        .set('X-Forwarded-For', '10.5.1.7')
        .send({ username: 'alice', password: 'alice-pass-123' });
      problem(limited, 429, 'rate-limited');
      assert.ok(limited.headers['retry-after']);
      const boom = await cb().get('/probe/boom');
      problem(boom, 500, 'internal-error');
      assert.ok(!boom.text.includes('secret internal detail'));
    });
  });
}
