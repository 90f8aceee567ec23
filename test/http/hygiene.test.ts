import 'reflect-metadata';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import Koa from 'koa';
import request from 'supertest';
import { securityHeaders } from '../../src/adapters/koa/hygiene';
import { loadConfig } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { prodEnv } from '../support/prod-env';

/** Helmet's full set, as HTML responses carry it (the CSP is the one Swagger UI and the try-it page work under). */
const HELMET_SET: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action " +
    "'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src " +
    "'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests;connect-src 'self'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'cross-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** The OWASP REST Security Cheat Sheet set, on every non-HTML response. */
const API_SET: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'cross-origin',
  'referrer-policy': 'no-referrer',
};

function assertApiSet(headers: Record<string, string | undefined>, label: string): void {
  for (const [name, value] of Object.entries(API_SET)) assert.equal(headers[name], value, `${label} ${name}`);
  for (const name of Object.keys(HELMET_SET)) if (!(name in API_SET)) assert.equal(headers[name], undefined, `${label} ${name}`);
}

describe('HTTP hygiene: security headers, CORS, server timeouts', () => {
  let infra: TestInfra;
  let open: ReturnType<typeof buildBoth>;
  let closed: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.cors.allowed-origins': 'https://admin.example, http://localhost:8848' });
    infra = testInfra(config, { label: 'hygiene' });
    open = buildBoth(config, infra);
    closed = buildBoth(testConfig(), infra);
  });
  after(async () => infra?.dispose());

  it('JSON successes and errors of both apps carry the OWASP REST API set, and nothing of the HTML-only set', async () => {
    const cases = [
      [open.admin.app, '/actuator/health', 200],
      [open.web.app, '/actuator/health', 200],
      [open.admin.app, '/v3/api-docs', 200],
      [open.web.app, '/v3/api-docs', 200],
      [open.admin.app, '/actuator/prometheus', 200],
      [open.admin.app, '/nope', 404],
      [open.web.app, '/nope', 404],
      [open.admin.app, '/auth/me', 401],
      [open.web.app, '/user/profile', 401],
      [open.web.app, '/problems/nope', 404],
    ] as const;
    for (const [app, path, status] of cases) {
      const res = await request(app.callback()).get(path).expect(status);
      assert.doesNotMatch(res.headers['content-type'] ?? '', /html/, path);
      assertApiSet(res.headers, path);
      assert.equal(res.headers['cache-control'], 'no-store', path);
      assert.ok(res.headers['x-request-id'], path);
    }
  });

  it('a 404 and a 401 JSON error carry the API set on both apps (envelope and problem+json)', async () => {
    for (const app of [open.admin.app, open.web.app]) {
      const missing = await request(app.callback()).get('/no/such/route').expect(404).expect('Content-Type', /json/);
      assertApiSet(missing.headers, '404');
      const unauth = await request(app.callback())
        .get(app === open.admin.app ? '/auth/me' : '/user/profile')
        .set('Authorization', 'Bearer nope')
        .expect(401);
      assert.match(unauth.headers['content-type'] ?? '', /json/);
      assert.match(unauth.headers['www-authenticate'] ?? '', /Bearer/);
      assertApiSet(unauth.headers, '401');
    }
  });

  it('non-HTML assets get the API set and keep their own Cache-Control; an empty preflight gets the API set', async () => {
    const css = await request(open.admin.app.callback())
      .get('/swagger-ui/swagger-ui.css')
      .expect(200)
      .expect('Content-Type', /text\/css/);
    assertApiSet(css.headers, 'css');
    assert.equal(css.headers['cache-control'], 'public, max-age=3600');
    const js = await request(open.web.app.callback())
      .get('/swagger-ui/swagger-initializer.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
    assertApiSet(js.headers, 'js');
    const pre = await request(open.web.app.callback())
      .options('/user/profile')
      .set('Origin', 'http://localhost:8848')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    assertApiSet(pre.headers, 'preflight');
  });

  it('HTML responses keep the full helmet set: Swagger UI (dev), the try-it page, a problem page', async () => {
    const dev = loadConfig({ env: { APP_PROFILE: 'dev' }, overrides: { 'svc.store': 'memory', 'svc.crypto.worker-threads': 1 } });
    const devInfra = testInfra(dev, { label: 'hygiene-dev' });
    try {
      const both = buildBoth(dev, devInfra);
      const pages = [
        [both.admin.app, '/swagger-ui', undefined],
        [both.web.app, '/swagger-ui', undefined],
        [both.admin.app, '/swagger-ui/index.html', undefined],
        [both.admin.app, '/', 'no-store'],
        [both.web.app, '/problems/not-found', 'public, max-age=3600'],
      ] as const;
      for (const [app, path, cacheControl] of pages) {
        const res = await request(app.callback())
          .get(path)
          .expect(200)
          .expect('Content-Type', /^text\/html/);
        for (const [name, value] of Object.entries(HELMET_SET)) assert.equal(res.headers[name], value, `${path} ${name}`);
        assert.equal(res.headers['cache-control'], cacheControl, path);
        assert.ok(res.headers['x-request-id'], path);
      }
      // the Swagger UI page loads no inline script (script-src 'self' would block it)
      const page = await request(both.admin.app.callback()).get('/swagger-ui').expect(200);
      assert.doesNotMatch(page.text, /<script>(?!<\/script>)/);
    } finally {
      await devInfra.dispose();
    }
  });

  it('the choice is made on the final Content-Type, also for streamed bodies; headers already sent are left alone', async () => {
    const app = new Koa();
    const errors: unknown[] = [];
    app.on('error', (e: unknown) => errors.push(e));
    app.use(securityHeaders() as unknown as Koa.Middleware);
    app.use(async (ctx) => {
      if (ctx.path === '/stream.html') {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = Readable.from(['<!doctype html><p>', 'streamed</p>']);
      } else if (ctx.path === '/stream.json') {
        ctx.type = 'application/json';
        ctx.body = Readable.from(['{"a":', '1}']);
      } else if (ctx.path === '/XHTML') {
        ctx.set('Content-Type', 'Application/XHTML+XML');
        ctx.body = '<html xmlns="http://www.w3.org/1999/xhtml"/>';
      } else {
        ctx.respond = false;
        ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
        ctx.res.end('raw');
      }
    });
    const html = await request(app.callback()).get('/stream.html').expect(200);
    assert.equal(html.text, '<!doctype html><p>streamed</p>');
    for (const [name, value] of Object.entries(HELMET_SET)) assert.equal(html.headers[name], value, name);
    const json = await request(app.callback()).get('/stream.json').expect(200);
    assert.deepEqual(JSON.parse(json.text), { a: 1 });
    assertApiSet(json.headers, 'stream.json');
    const xhtml = await request(app.callback()).get('/XHTML').expect(200);
    assert.equal(xhtml.headers['x-frame-options'], 'SAMEORIGIN');
    const raw = await request(app.callback()).get('/raw').expect(200);
    assert.equal(raw.text, 'raw');
    assert.equal(raw.headers['content-security-policy'], undefined);
    assert.deepEqual(errors, []);
  });

  it('CORS answers only the configured origins, also on errors, and exposes the request id', async () => {
    const app = open.admin.app.callback();
    const ok = await request(app).get('/auth/me').set('Origin', 'https://admin.example').expect(401);
    assert.equal(ok.headers['access-control-allow-origin'], 'https://admin.example');
    assert.match(ok.headers['access-control-expose-headers'] ?? '', /X-Request-Id/);
    assert.equal(ok.headers['access-control-allow-credentials'], undefined);
    assert.match(ok.headers['vary'] ?? '', /Origin/);
    const other = await request(app).get('/auth/me').set('Origin', 'https://evil.example').expect(401);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it('a preflight from an allowed origin is answered with the methods and requested headers', async () => {
    const res = await request(open.web.app.callback())
      .options('/user/profile')
      .set('Origin', 'http://localhost:8848')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'Authorization, Content-Type')
      .expect(204);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:8848');
    assert.match(res.headers['access-control-allow-methods'] ?? '', /GET/);
    assert.match(res.headers['access-control-allow-headers'] ?? '', /Authorization/);
    assert.equal(res.headers['access-control-max-age'], '600');
  });

  it('no origins configured: no CORS headers; prod allows none by default; bad origins are refused', async () => {
    const res = await request(closed.admin.app.callback()).get('/actuator/health').set('Origin', 'https://admin.example').expect(200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.deepEqual(loadConfig({ env: prodEnv() }).corsAllowedOrigins, []);
    assert.throws(() => testConfig({ 'svc.cors.allowed-origins': 'admin.example' }), /svc\.cors\.allowed-origins/);
    assert.throws(() => testConfig({ 'svc.cors.allowed-origins': 'https://admin.example/path' }), /svc\.cors\.allowed-origins/);
  });

  it('server timeouts are configurable, with slow-client defaults', () => {
    assert.deepEqual(testConfig().server, { headersTimeoutMs: 15000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 5000 });
    assert.equal(testConfig({ 'svc.server.headers-timeout-ms': '5000' }).server.headersTimeoutMs, 5000);
    assert.throws(() => testConfig({ 'svc.server.request-timeout-ms': 0 }), /svc\.server\.request-timeout-ms/);
  });
});
