import assert from 'node:assert/strict';
import request from 'supertest';
import { z } from 'zod';
import { parseCidrList } from '../../src/adapters/koa/client-ip';
import { currentUser, type AuthGuards } from '../../src/adapters/koa/guards';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { EnvelopeResponder, ProblemResponder } from '../../src/adapters/koa/responders';
import { route, type RouteDef } from '../../src/adapters/koa/routes';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { Principal } from '../../src/domain/session';
import { authGuardsOf } from '../../src/main/container';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { requireRedis } from '../support/services';
import type { LoginType } from '../../src/domain/login-type';

const viewer: Principal = { userId: '7', username: 'viewer', roles: ['viewer'], permissions: ['system:user:list', 'monitor:*'] };

/** The probes answer JSON objects of any shape. */
const PROBE = z.record(z.unknown());

function probeRoutes(g: AuthGuards, type: LoginType): RouteDef[] {
  return [
    route({ method: 'get', path: '/probe/open', summary: 'open', response: PROBE, handler: async () => ({ hello: 'world' }) }),
    route({
      method: 'get',
      path: '/probe/boom',
      summary: 'throws',
      response: PROBE,
      handler: async () => {
        throw new Error('secret internal detail');
      },
    }),
    route({
      method: 'post',
      path: '/probe/body',
      summary: 'validated body',
      body: z.object({ name: z.string().min(1), age: z.number().int() }),
      response: PROBE,
      handler: async (_ctx, { body }) => body,
    }),
    route({
      method: 'get',
      path: '/probe/list',
      summary: 'perm',
      response: PROBE,
      guards: [g.requireLogin(type), g.requirePermission(type, 'system:user:list')],
      handler: async (ctx) => ({ user: currentUser(ctx).username }),
    }),
    route({
      method: 'post',
      path: '/probe/add',
      summary: 'perm',
      response: PROBE,
      guards: [g.requireLogin(type), g.requirePermission(type, 'system:user:add')],
      handler: async () => ({ added: true }),
    }),
    route({
      method: 'get',
      path: '/probe/any',
      summary: 'or',
      response: PROBE,
      guards: [g.requireLogin(type), g.requirePermission(type, ['system:user:add', 'monitor:online:list'], 'OR')],
      handler: async () => ({ ok: true }),
    }),
    route({
      method: 'get',
      path: '/probe/admin-role',
      summary: 'role',
      response: PROBE,
      guards: [g.requireLogin(type), g.requireRole(type, 'admin')],
      handler: async () => ({ ok: true }),
    }),
  ];
}

for (const kind of STORE_KINDS) {
  describe(`HTTP foundation (${kind} store)`, function () {
    let infra: TestInfra;
    let managers: SessionManagers;
    let admin: ReturnType<typeof createHttpApp>;
    let web: ReturnType<typeof createHttpApp>;
    let realAdmin: ReturnType<typeof buildBoth>['admin'];
    let realWeb: ReturnType<typeof buildBoth>['web'];

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.body-limit-bytes': 2048 }, kind);
      infra = testInfra(config, { label: 'foundation' });
      const both = buildBoth(config, infra);
      realAdmin = both.admin;
      realWeb = both.web;
      managers = both.admin.container.get(SessionManagers);
      const common = { trustedProxies: parseCidrList([]), bodyLimitBytes: 2048, log: silentLogger };
      admin = createHttpApp({
        ...common,
        realm: 'admin',
        responder: new EnvelopeResponder(),
        routes: probeRoutes(authGuardsOf(both.admin.container), 'admin'),
      });
      web = createHttpApp({
        ...common,
        realm: 'web',
        responder: new ProblemResponder(config.problemBaseUri),
        routes: probeRoutes(authGuardsOf(both.admin.container), 'web'),
      });
    });
    after(async () => infra?.dispose());

    const login = async (type: LoginType, p: Principal = viewer) => (await managers.get(type).login(p)).token;

    describe('admin envelope', () => {
      it('success is code 0 with HTTP 200', async () => {
        const res = await request(admin.callback()).get('/probe/open').expect(200);
        assert.deepEqual(res.body, { code: 0, message: 'ok', data: { hello: 'world' } });
        assert.ok(res.headers['x-request-id']);
      });
      const cases: Array<[string, () => request.Test, number, number]> = [
        ['unknown route', () => request(admin.callback()).get('/nope'), 404, 40400],
        ['wrong method', () => request(admin.callback()).delete('/probe/open'), 405, 40500],
        [
          'malformed JSON',
          () => request(admin.callback()).post('/probe/body').set('Content-Type', 'application/json').send('{"name":'),
          400,
          40001,
        ],
        ['invalid body', () => request(admin.callback()).post('/probe/body').send({ name: '', age: 'x' }), 400, 40000],
        [
          'body over the limit',
          () =>
            request(admin.callback())
              .post('/probe/body')
              .send({ name: 'x'.repeat(5000), age: 1 }),
          413,
          41300,
        ],
        [
          'unsupported content type',
          () => request(admin.callback()).post('/probe/body').set('Content-Type', 'text/plain').send('hello'),
          415,
          41500,
        ],
        ['unexpected error', () => request(admin.callback()).get('/probe/boom'), 500, 50000],
        ['no token', () => request(admin.callback()).get('/probe/list'), 401, 40100],
      ];
      for (const [name, make, status, code] of cases) {
        it(`${name} -> HTTP ${status}, code ${code}, data null`, async () => {
          const res = await make();
          assert.equal(res.status, status);
          assert.match(res.headers['content-type'] ?? '', /application\/json/);
          assert.equal(res.body.code, code);
          assert.equal(res.body.data, null);
          assert.equal(typeof res.body.message, 'string');
          assert.ok(!JSON.stringify(res.body).includes('secret internal detail'));
          assert.ok(!/\n\s+at /.test(res.text) && !res.text.includes('.ts:'), 'no stack trace');
        });
      }
      it('validation errors carry JSON pointers', async () => {
        const res = await request(admin.callback()).post('/probe/body').send({ name: '', age: 'x' }).expect(400);
        const pointers = (res.body.errors as Array<{ pointer: string }>).map((e) => e.pointer).sort();
        assert.deepEqual(pointers, ['/age', '/name']);
      });
    });

    describe('web problem details (RFC 9457)', () => {
      const cases: Array<[string, () => request.Test, number, string]> = [
        ['unknown route', () => request(web.callback()).get('/nope'), 404, 'not-found'],
        ['wrong method', () => request(web.callback()).put('/probe/open'), 405, 'method-not-allowed'],
        [
          'malformed JSON',
          () => request(web.callback()).post('/probe/body').set('Content-Type', 'application/json').send('{'),
          400,
          'malformed-json',
        ],
        ['invalid body', () => request(web.callback()).post('/probe/body').send({}), 400, 'validation-failed'],
        [
          'body over the limit',
          () =>
            request(web.callback())
              .post('/probe/body')
              .send({ name: 'x'.repeat(5000) }),
          413,
          'payload-too-large',
        ],
        [
          'unsupported content type',
          () => request(web.callback()).post('/probe/body').set('Content-Type', 'application/xml').send('<a/>'),
          415,
          'unsupported-media-type',
        ],
        ['unexpected error', () => request(web.callback()).get('/probe/boom'), 500, 'internal-error'],
        ['no token', () => request(web.callback()).get('/probe/list'), 401, 'token-missing'],
      ];
      for (const [name, make, status, reason] of cases) {
        it(`${name} -> ${status} application/problem+json (${reason})`, async () => {
          const res = await make();
          assert.equal(res.status, status);
          assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
          const body = JSON.parse(res.text) as Record<string, unknown>;
          assert.equal(body.status, status);
          assert.equal(body.code, reason);
          assert.match(String(body.type), new RegExp(`^https?://.+/${reason}$`));
          assert.equal(typeof body.title, 'string');
          assert.equal(typeof body.detail, 'string');
          assert.match(String(body.instance), /^urn:request:/);
          assert.ok(!res.text.includes('secret internal detail'));
        });
      }
      it('honours a well-formed X-Request-Id and echoes it in instance', async () => {
        const res = await request(web.callback()).get('/nope').set('X-Request-Id', 'req-123');
        assert.equal(res.headers['x-request-id'], 'req-123');
        assert.equal(JSON.parse(res.text).instance, 'urn:request:req-123');
      });
    });

    describe('guards', () => {
      it('401 without a token carries WWW-Authenticate with the realm and no error', async () => {
        const a = await request(admin.callback()).get('/probe/list').expect(401);
        assert.equal(a.headers['www-authenticate'], 'Bearer realm="admin"');
        const w = await request(web.callback()).get('/probe/list').expect(401);
        assert.equal(w.headers['www-authenticate'], 'Bearer realm="web"');
      });
      it('401 with a bad token says invalid_token', async () => {
        const res = await request(admin.callback())
          .get('/probe/list')
          .set('Authorization', 'Bearer 0b5e6c39-1b0e-4b8f-9d0a-2f4c1e8b7a61')
          .expect(401);
        assert.match(res.headers['www-authenticate'] ?? '', /^Bearer realm="admin", error="invalid_token"/);
        assert.equal(res.body.code, 40102);
      });
      it('401 on a wrong scheme', async () => {
        const token = await login('admin');
        const res = await request(admin.callback()).get('/probe/list').set('Authorization', `Token ${token}`).expect(401);
        assert.equal(res.body.code, 40101);
      });
      it('permission granted -> 200 with the current user; missing -> 403', async () => {
        const token = await login('admin');
        const ok = await request(admin.callback()).get('/probe/list').set('Authorization', `Bearer ${token}`).expect(200);
        assert.deepEqual(ok.body.data, { user: 'viewer' });
        const denied = await request(admin.callback()).post('/probe/add').set('Authorization', `Bearer ${token}`).expect(403);
        assert.equal(denied.body.code, 40300);
        await request(admin.callback()).get('/probe/any').set('Authorization', `Bearer ${token}`).expect(200);
        const role = await request(admin.callback()).get('/probe/admin-role').set('Authorization', `Bearer ${token}`).expect(403);
        assert.equal(role.body.code, 40301);
      });
      it('*:*:* grants everything', async () => {
        const token = await login('admin', { userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] });
        await request(admin.callback()).post('/probe/add').set('Authorization', `Bearer ${token}`).expect(200);
        await request(admin.callback()).get('/probe/admin-role').set('Authorization', `Bearer ${token}`).expect(200);
      });
      it('kicked-out and logged-out tokens are rejected with their reason', async () => {
        const m = managers.get('admin');
        const t1 = await m.login({ ...viewer, userId: 'kick-me' });
        await m.kickoutUser('kick-me');
        const r1 = await request(admin.callback()).get('/probe/list').set('Authorization', `Bearer ${t1.token}`).expect(401);
        assert.equal(r1.body.code, 40105);
        const t2 = await login('admin');
        await m.logout(t2);
        const r2 = await request(admin.callback()).get('/probe/list').set('Authorization', `Bearer ${t2}`).expect(401);
        assert.equal(r2.body.code, 40102);
      });
    });

    describe('login types are independent (real composition roots)', () => {
      it('an admin token is invalid on the web app and a web token on the admin app', async () => {
        const adminToken = await login('admin');
        const webToken = await login('web');
        const me = await request(realAdmin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${adminToken}`).expect(200);
        assert.equal(me.body.data.username, 'viewer');
        await request(realWeb.app.callback()).get('/user/profile').set('Authorization', `Bearer ${webToken}`).expect(200);
        const a = await request(realWeb.app.callback()).get('/user/profile').set('Authorization', `Bearer ${adminToken}`).expect(401);
        assert.equal(JSON.parse(a.text).code, 'token-invalid');
        const b = await request(realAdmin.app.callback()).get('/auth/me').set('Authorization', `Bearer ${webToken}`).expect(401);
        assert.equal(b.body.code, 40102);
      });
    });
  });
}

describe('request bodies that once reached a 500', () => {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(async () => {
    const config = testConfig();
    infra = testInfra(config, { label: 'bodies' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  it('a Content-Encoding the service does not take -> 415 in the app format (a broken gzip body is never decompressed)', async () => {
    const a = await request(apps.admin.app.callback())
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip at all');
    assert.equal(a.status, 415);
    assert.equal(a.body.code, 41500);
    const w = await request(apps.web.app.callback())
      .post('/auth/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip at all');
    assert.equal(w.status, 415);
    assert.match(w.headers['content-type'] ?? '', /problem\+json/);
  });

  it('a body on GET is never read: a broken gzip body or bad JSON there changes nothing (no 500)', async () => {
    for (const app of [apps.admin.app, apps.web.app]) {
      const gz = await request(app.callback())
        .get('/actuator/health')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('garbage');
      assert.equal(gz.status, 200);
      const bad = await request(app.callback()).get('/actuator/health').set('Content-Type', 'application/json').send('{"not json');
      assert.equal(bad.status, 200);
    }
  });

  it('JSON nested deeper than 32 levels -> 400 before any guard or handler sees it', async () => {
    const deep = '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const token = (
      await apps.web.container.get(SessionManagers).get('web').login({ userId: 'n1', username: 'n', roles: [], permissions: [] })
    ).token;
    const res = await request(apps.web.app.callback())
      .post('/payments')
      .set('Authorization', `Bearer ${token}`)
      .set('Idempotency-Key', 'deep-1')
      .set('Content-Type', 'application/json')
      .send(deep);
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.text).code, 'validation-failed');
    const ok = '{"a":' + '['.repeat(20) + ']'.repeat(20) + '}';
    const res2 = await request(apps.admin.app.callback()).post('/auth/login').set('Content-Type', 'application/json').send(ok);
    assert.notEqual(res2.status, 500);
  });
});

describe('session.is-read-cookie', () => {
  for (const readCookie of [false, true]) {
    it(
      `${readCookie}: a token in a cookie named like the token header is ` +
        `${readCookie ? 'accepted when no header is sent' : 'never read'}`,
      async () => {
        const config = testConfig({ 'session.is-read-cookie': readCookie });
        const infra = testInfra(config, { label: `cookie-${readCookie}` });
        try {
          const { admin } = buildBoth(config, infra);
          const { token } = await admin.container
            .get(SessionManagers)
            .get('admin')
            .login({ userId: 'c1', username: 'cookie', roles: [], permissions: [] });
          const res = await request(admin.app.callback()).get('/auth/me').set('Cookie', `Authorization=${token}`);
          if (readCookie) {
            assert.equal(res.status, 200);
            assert.equal(res.body.data.username, 'cookie');
            // the header still wins when both are sent
            const both = await request(admin.app.callback())
              .get('/auth/me')
              .set('Cookie', `Authorization=${token}`)
              .set('Authorization', 'Bearer 00000000-0000-4000-8000-000000000000');
            assert.equal(both.status, 401);
          } else {
            assert.equal(res.status, 401);
            assert.equal(res.body.code, 40100, 'token-missing: the cookie was not read');
          }
        } finally {
          await infra.dispose();
        }
      },
    );
  }
});
