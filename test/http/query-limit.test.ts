/** More query parameters than svc.http.max-query-params answer 400 in the app's format; none is dropped silently. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { countQueryParams, exceedsNodeQueryKeys } from '../../src/adapters/koa/middleware';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const query = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');

describe('query parameter limit', () => {
  const infras: TestInfra[] = [];
  const build = (overrides = {}) => {
    const config = testConfig(overrides);
    const infra = testInfra(config, { label: 'query-limit' });
    infras.push(infra);
    return buildBoth(config, infra);
  };
  after(async () => Promise.all(infras.map((i) => i.dispose())));

  it('counts the non-empty &-separated pairs of the raw query string', () => {
    assert.equal(countQueryParams(''), 0);
    assert.equal(countQueryParams('a=1'), 1);
    assert.equal(countQueryParams('a=1&&b&'), 2);
    assert.equal(countQueryParams('&&&'), 0);
    assert.equal(countQueryParams('a=1&a=2&a=3'), 3);
    assert.equal(countQueryParams(query(1001)), 1001);
  });

  it('1,000 parameters (the default) reach the handler, every one of them; 1,001 answer 400 too-many-query-params', async () => {
    const apps = build();
    for (const which of ['admin', 'web'] as const) {
      const app = apps[which].app.callback();
      const ok = await request(app)
        .get(`/examples/echo?${query(1000)}`)
        .expect(200);
      const seen = (which === 'admin' ? ok.body.data : ok.body).query as Record<string, string>;
      assert.equal(Object.keys(seen).length, 1000);
      assert.equal(seen.p999, '999');

      const over = await request(app).get(`/examples/echo?${query(1001)}`);
      assert.equal(over.status, 400, which);
      if (which === 'admin') {
        assert.equal(over.body.code, 40003);
        assert.equal(over.body.data, null);
      } else {
        assert.match(over.headers['content-type'] ?? '', /application\/problem\+json/);
        assert.equal(JSON.parse(over.text).code, 'too-many-query-params');
      }
      // the same on a route that does not exist, and before the login guard
      assert.equal((await request(app).get(`/auth/me?${query(1001)}`)).status, 400);
    }
  });

  it("empty segments cannot push a parameter past the parser's cut-off: 1,000 × & then q=1 answers 400", async () => {
    const apps = build({});
    const web = apps.web.app.callback();
    const padded = `/examples/echo?${'&'.repeat(1000)}q=1`;
    assert.equal((await request(web).get(padded)).status, 400);
    assert.equal(exceedsNodeQueryKeys('&'.repeat(999)), false, '1,000 segments are all read');
    assert.equal(exceedsNodeQueryKeys('&'.repeat(1000)), true);
  });

  it('svc.http.max-query-params sets the limit; repeated names count each time', async () => {
    const apps = build({ 'svc.http.max-query-params': 3 });
    const web = apps.web.app.callback();
    await request(web).get('/examples/echo?a=1&a=2&b=3').expect(200);
    await request(web).get('/examples/echo?a=1&&a=2&b=3&').expect(200);
    assert.equal((await request(web).get('/examples/echo?a=1&a=2&a=3&a=4')).status, 400);
    assert.throws(() => testConfig({ 'svc.http.max-query-params': 0 }), /svc\.http\.max-query-params/);
  });
});
