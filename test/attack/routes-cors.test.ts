/**
 * Attack / integration: the admin SPA of the vue-pure-admin family runs on its own origin in development
 * (svc.cors.allowed-origins, dev: http://localhost:8848) and is told to revalidate `GET /auth/routes` with its ETag.
 * The route sets `Vary: Authorization` over the `Vary: Origin` that CORS put there (a shared or browser cache may then
 * hand one origin's answer, with its Access-Control-Allow-Origin, to another), and `ETag` is not among the exposed
 * headers, so a cross-origin SPA cannot read the tag it should send back in If-None-Match.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { bearer, lab, passwordSession } from './support';

const SPA = 'http://localhost:8848';

describe('attack: GET /auth/routes from the SPA on its own origin', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  it('keeps Vary: Origin beside Authorization, and exposes ETag to the SPA', async function () {
    const l = await lab(this, 'memory', { 'svc.cors.allowed-origins': SPA });
    infra = l.infra;
    const a = l.app('admin');
    const token = await passwordSession(a, 'admin', 'admin123');
    const res = await request(a.app.callback()).get('/auth/routes').set(bearer(token)).set('Origin', SPA).expect(200);
    assert.equal(res.headers['access-control-allow-origin'], SPA);
    const vary = String(res.headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase());
    assert.ok(vary.includes('origin'), `Vary: ${res.headers.vary}`);
    assert.ok(vary.includes('authorization'), `Vary: ${res.headers.vary}`);
    const exposed = String(res.headers['access-control-expose-headers'] ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase());
    assert.ok(exposed.includes('etag'), `Access-Control-Expose-Headers: ${res.headers['access-control-expose-headers']}`);
    await request(a.app.callback())
      .get('/auth/routes')
      .set(bearer(token))
      .set('Origin', SPA)
      .set('If-None-Match', String(res.headers.etag))
      .expect(304);
  });
});
