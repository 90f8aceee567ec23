/* eslint-disable @typescript-eslint/no-explicit-any -- the tests walk a parsed JSON document */
import { Validator } from '@seriousme/openapi-schema-validator';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { z } from 'zod';
import { idempotencyGuards } from '../../src/adapters/koa/idempotency-guards';
import { buildOpenApiDocument, toOpenApiPath } from '../../src/adapters/koa/openapi';
import { rateLimiter } from '../../src/adapters/koa/rate-limit';
import { route, type RouteDef } from '../../src/adapters/koa/routes';
import { requireSignature } from '../../src/adapters/koa/signature-guard';
import { CheckRateLimit } from '../../src/application/auth/check-rate-limit';
import { VerifySignature } from '../../src/application/signing/verify-signature';
import { authGuardsOf, idempotencyGuardDeps } from '../../src/main/container';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, unknown>>;
};

async function assertValid(doc: unknown): Promise<void> {
  const v = new Validator();
  const result = await v.validate(doc as never);
  assert.equal(v.version, '3.1');
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
}

describe('OpenAPI 3.1 and Swagger UI', () => {
  let infra: TestInfra;
  let config: ReturnType<typeof testConfig>;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    config = testConfig();
    infra = testInfra(config, { label: 'openapi' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  for (const name of ['admin', 'web'] as const) {
    it(`${name}: /v3/api-docs is a valid OpenAPI 3.1 document listing every mounted route`, async () => {
      const res = await request(apps[name].app.callback()).get('/v3/api-docs').expect(200);
      assert.match(res.headers['content-type'] ?? '', /^application\/json/);
      const doc = res.body as Doc;
      assert.equal(doc.openapi, '3.1.0');
      await assertValid(doc);
      assert.ok(apps[name].routes.length >= 8);
      for (const def of apps[name].routes) {
        const p = toOpenApiPath(def.path).path;
        assert.ok(doc.paths[p]?.[def.method], `${def.method.toUpperCase()} ${def.path} is not documented`);
      }
    });
  }

  it('documents the bearer scheme per login type, the error format of each app and the success envelope', async () => {
    const admin = (await request(apps.admin.app.callback()).get('/v3/api-docs')).body as Doc;
    const me = admin.paths['/auth/me']?.get as Record<string, any>;
    assert.deepEqual(me.security, [{ adminToken: [] }]);
    assert.deepEqual((admin.components.securitySchemes as Record<string, any>).adminToken.scheme, 'bearer');
    assert.equal(me.responses['401'].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope');
    assert.match(me.responses['401'].description, /token-expired/);
    assert.deepEqual(me.responses['200'].content['application/json'].schema.properties.code.enum, [0]);

    const web = (await request(apps.web.app.callback()).get('/v3/api-docs')).body as Doc;
    const profile = web.paths['/user/profile']?.get as Record<string, any>;
    assert.deepEqual(profile.security, [{ webToken: [] }]);
    assert.equal(profile.responses['401'].content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
    assert.ok(!web.paths['/auth/me'], 'the admin route is not on the web app');
  });

  it('documents guards generically from their doc: permission, signature, idempotency, rate limit', async () => {
    const c = apps.admin.container;
    const g = authGuardsOf(c);
    const { idempotent } = idempotencyGuards(idempotencyGuardDeps(c, config, infra));
    const routes: RouteDef[] = [
      route({
        method: 'post',
        path: '/system/user/:id',
        summary: 'add user',
        tags: ['system'],
        guards: [
          g.requireLogin('admin'),
          g.requirePermission('admin', 'system:user:add'),
          requireSignature(c.get(VerifySignature)),
          idempotent({ mode: 'HEADER' }),
          rateLimiter(c.get(CheckRateLimit), 'admin')({ key: 'login', windowSeconds: 60, limit: 5, limitType: 'IP' }),
        ],
        body: z.object({ username: z.string().min(1), password: z.string() }),
        response: z.object({ userId: z.string() }),
        handler: async () => ({ userId: '1' }),
      }),
      route({
        method: 'post',
        path: '/orders',
        summary: 'order',
        guards: [idempotent({ mode: 'TOKEN' })],
        successStatus: 201,
        response: z.object({ id: z.string() }),
        handler: async () => ({ id: '1' }),
      }),
    ];
    const doc = buildOpenApiDocument({ title: 't', version: '1', format: 'problem', routes }) as unknown as Doc;
    await assertValid(doc);
    const op = doc.paths['/system/user/{id}']?.post as Record<string, any>;
    const params = (op.parameters as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`);
    for (const p of ['path:id', 'header:X-App-Key', 'header:X-Timestamp', 'header:X-Nonce', 'header:X-Sign', 'header:Idempotency-Key'])
      assert.ok(params.includes(p), p);
    for (const s of ['400', '401', '403', '409', '413', '415', '422', '429', '500', '503']) assert.ok(op.responses[s], `status ${s}`);
    assert.match(op.description, /system:user:add/);
    assert.equal(op.requestBody.content['application/json'].schema.properties.username.type, 'string');
    assert.equal(op.responses['200'].content['application/json'].schema.properties.userId.type, 'string');
    const order = doc.paths['/orders']?.post as Record<string, any>;
    assert.ok((order.parameters as Array<{ name: string }>).some((p) => p.name === 'X-Idempotent-Token'));
    assert.ok(order.responses['201']);
  });

  it('/swagger-ui serves the page and its assets from node_modules, no CDN', async () => {
    const app = apps.admin.app.callback();
    const page = await request(app).get('/swagger-ui').expect(200);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    const srcs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    assert.ok(srcs.length >= 3);
    for (const src of srcs) {
      assert.ok(src.startsWith('/swagger-ui/'), `${src} is same-origin`);
      const asset = await request(app).get(src).expect(200);
      assert.ok((asset.body?.length ?? asset.text.length) > 0 || asset.text.length > 0);
    }
    const init = await request(app).get('/swagger-ui/swagger-initializer.js').expect(200);
    assert.match(init.text, /\/v3\/api-docs/);
    await request(apps.web.app.callback()).get('/swagger-ui/index.html').expect(200);
    const missing = await request(app).get('/swagger-ui/../../package.json').expect(404);
    assert.equal(missing.body.code, 40400);
    await request(app).get('/swagger-ui/absolute-path.js').expect(404);
  });

  it('both answer 404 in the app format when disabled (the prod default)', async () => {
    const config = testConfig({ 'svc.openapi.enabled': false });
    const off = buildBoth(config, infra);
    for (const p of ['/v3/api-docs', '/swagger-ui', '/swagger-ui/swagger-ui.css']) {
      const a = await request(off.admin.app.callback()).get(p).expect(404);
      assert.equal(a.body.code, 40400);
      const w = await request(off.web.app.callback()).get(p).expect(404);
      assert.match(w.headers['content-type'] ?? '', /^application\/problem\+json/);
    }
  });
});
