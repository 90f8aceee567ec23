import 'reflect-metadata';
import assert from 'node:assert/strict';
import request from 'supertest';
import { loadConfig } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { prodEnv } from '../support/prod-env';


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

  it('security headers on successes and errors of both apps, with a CSP Swagger UI works under', async () => {
    for (const app of [open.admin.app, open.web.app]) {
      for (const [path, status] of [['/actuator/health', 200], ['/nope', 404], ['/swagger-ui', 200]] as const) {
        const res = await request(app.callback()).get(path).expect(status);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
        assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN', path);
        assert.ok(res.headers['strict-transport-security'], path);
        const csp = res.headers['content-security-policy'] ?? '';
        assert.match(csp, /script-src 'self'(;|$)/, path);
        assert.match(csp, /style-src 'self' 'unsafe-inline'/, path);
        assert.match(csp, /img-src 'self' data:/, path);
        assert.ok(res.headers['x-request-id'], path);
      }
    }
    // the Swagger UI page loads no inline script (script-src 'self' would block it)
    const page = await request(open.admin.app.callback()).get('/swagger-ui').expect(200);
    assert.doesNotMatch(page.text, /<script>(?!<\/script>)/);
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
