/**
 * RFC 9110 §15.5.6: a 405 carries `Allow`. Every path of both apps, driven with every method it
 * does not declare, answers 405 in the app's own format with the declared methods and OPTIONS in
 * `Allow`; OPTIONS lists the same with 200; a method the server does not know at all is refused the same way.
 * The paths come from the mounted route tables, so a new route is covered without a list here.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+/g, '1').replace(/\(.*?\)/g, '');
}

/** Whether a route's path matches a concrete URL path (`:name` is one segment): `/auth/passkeys/:id` matches `/auth/passkeys/options`. */
function matches(routePath: string, url: string): boolean {
  const pattern = routePath
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`).test(url);
}

function allowOf(res: request.Response): string[] {
  return String(res.headers.allow ?? '')
    .split(/,\s*/)
    .filter((m) => m !== '')
    .sort();
}

describe('undeclared methods answer 405 with Allow, on every path of both apps', function () {
  this.timeout(60_000);
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  before(() => {
    const config = testConfig({ 'svc.try-it.enabled': true });
    infra = testInfra(config, { label: 'allow' });
    apps = buildBoth(config, infra);
  });
  after(async () => infra?.dispose());

  for (const name of ['admin', 'web'] as const) {
    it(`${name}: 405 + Allow for every undeclared method, 200 + Allow for OPTIONS`, async () => {
      const { app, routes } = apps[name];
      // A URL's methods are those of every route whose path matches it (a parameter segment may match another route's literal).
      const byPath = new Map<string, Set<string>>();
      for (const path of new Set(routes.map((r) => r.path))) {
        const set = new Set<string>();
        for (const r of routes.filter((r) => matches(r.path, concrete(path)))) {
          set.add(r.method.toUpperCase());
          if (r.method === 'get') set.add('HEAD');
        }
        byPath.set(path, set);
      }
      let checked = 0;
      for (const [path, declared] of byPath) {
        const url = concrete(path);
        const expected = [...declared, 'OPTIONS'].sort();
        const options = await request(app.callback()).options(url);
        assert.equal(options.status, 200, `OPTIONS ${url}`);
        assert.deepEqual(allowOf(options), expected, `OPTIONS ${url}`);
        for (const method of METHODS.filter((m) => !declared.has(m))) {
          const res = await request(app.callback())[method.toLowerCase() as 'get'](url);
          assert.equal(res.status, 405, `${method} ${url}`);
          assert.deepEqual(allowOf(res), expected, `${method} ${url}: Allow`);
          if (name === 'admin') assert.equal(res.body.code, 40500, `${method} ${url}: envelope`);
          else {
            assert.match(String(res.headers['content-type']), /^application\/problem\+json/, `${method} ${url}`);
            assert.equal(res.body.code, 'method-not-allowed');
          }
          checked++;
        }
      }
      assert.ok(checked > 40, `only ${checked} undeclared methods were tried`);
    });
  }

  it('a method the server does not know at all is refused with Allow too', async () => {
    const res = await request(apps.admin.app.callback()).propfind('/auth/login');
    assert.equal(res.status, 405);
    assert.deepEqual(allowOf(res), ['OPTIONS', 'POST']);
    assert.equal(res.body.code, 40500);
  });

  it('Allow names OPTIONS, which every known path answers (RFC 9110 §9.3.7)', async () => {
    const options = await request(apps.web.app.callback()).options('/auth/login');
    assert.equal(options.status, 200);
    assert.deepEqual(allowOf(options), ['OPTIONS', 'POST']);
    const refused = await request(apps.web.app.callback()).get('/auth/login');
    assert.equal(refused.status, 405);
    assert.deepEqual(allowOf(refused), ['OPTIONS', 'POST']);
  });

  it('a path no route declares stays 404 whatever the method', async () => {
    await request(apps.admin.app.callback()).delete('/no/such/path').expect(404);
    await request(apps.web.app.callback()).post('/no/such/path').expect(404);
  });
});
