/**
 * Every route either app mounts has a test that calls it and a row in the docs (issue 24, point 2):
 * a new route cannot land without both. The apps are built as the test profile builds them, with
 * the examples and the try-it page on, so every route a profile can mount is in the list (the
 * operational ones included).
 *
 * - Called: some file under test/ holds the route's path as a string, `:name` segments matching
 *   any one segment (`/system/user/${id}/roles` calls `/system/user/:id/roles`), starting a string
 *   literal or following a template expression (`${base}/auth/login`), ending at the literal's end
 *   or at its query. The method is not checked: tests reach routes through helpers too.
 * - Documented, where each kind of route is documented today:
 *   - an app's own routes: a row `| METHOD | \`path\` |` of docs/integration-<app>.md;
 *   - routes mounted by a setting (the examples in request-protection.md, the actuator, the API
 *     description and the try-it page in operations.md): a row of any docs/*.md whose first cell
 *     names the app (`both`, `admin`, `web`) and that lists `` `METHOD path` ``.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import 'reflect-metadata';
import type { RouteDef } from '../../src/adapters/koa/routes';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

type App = 'admin' | 'web';
const APPS: readonly App[] = ['admin', 'web'];
const ROOT = path.join(__dirname, '../..');

/** Routes that may lack a test or a docs row, each with why. Keep it empty. */
const ALLOWED_GAPS: ReadonlyArray<{ readonly route: string; readonly app: App; readonly why: string }> = [];

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => path.join(e.parentPath, e.name));
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The route's path as tests write it: each `:name` is one segment, literal or `${...}`. */
function calledPattern(routePath: string): RegExp {
  const body = routePath
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/\\s\'"`?#]+' : escape(segment)))
    .join('/');
  return new RegExp(`(?:['"\`]|\\})${body}(?=['"\`?#])`);
}

/** `METHOD path` keys each app's docs document (see the header for where). */
function documentedRoutes(): Record<App, Set<string>> {
  const out: Record<App, Set<string>> = { admin: new Set(), web: new Set() };
  for (const file of filesUnder(path.join(ROOT, 'docs'), '.md')) {
    const own = /^integration-(admin|web)\.md$/.exec(path.basename(file))?.[1] as App | undefined;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const appRow = /^\| (METHOD|GET|POST|PUT|PATCH|DELETE) \| `(\/[^`]*)` \|/.exec(line);
      if (own && appRow) out[own].add(`${appRow[1]} ${appRow[2]}`);
      const settingRow = /^\| (both|admin|web) \|/.exec(line);
      if (!settingRow) continue;
      const apps = settingRow[1] === 'both' ? APPS : [settingRow[1] as App];
      for (const m of line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)) for (const a of apps) out[a].add(`${m[1]} ${m[2]}`);
    }
  }
  return out;
}

describe('every route has a test that calls it and a row in the docs', () => {
  let infra: TestInfra;
  let routes: Record<App, readonly RouteDef[]>;
  before(() => {
    const config = testConfig({ 'svc.examples.enabled': true, 'svc.try-it.enabled': true, 'svc.openapi.enabled': true });
    infra = testInfra(config, { label: 'route-coverage' });
    const apps = buildBoth(config, infra);
    routes = { admin: apps.admin.routes, web: apps.web.routes };
  });
  after(async () => infra?.dispose());

  const allowed = (app: App, key: string): boolean => ALLOWED_GAPS.some((g) => g.app === app && g.route === key);

  it('the apps mount the routes this test is meant to see (examples, try-it, actuator, docs)', () => {
    const keys = (app: App) => routes[app].map((r) => `${r.method.toUpperCase()} ${r.path}`);
    for (const k of ['POST /examples/notices', 'GET /', 'GET /actuator/prometheus', 'GET /swagger-ui/:file', 'POST /system/user/:id/roles'])
      assert.ok(keys('admin').includes(k), k);
    for (const k of ['POST /orders', 'GET /problems/:reason', 'GET /auth/captchaImage', 'GET /v3/api-docs'])
      assert.ok(keys('web').includes(k), k);
  });

  it('a test calls each route', () => {
    const self = path.resolve(__filename);
    const sources = filesUnder(path.join(ROOT, 'test'), '.ts')
      .filter((f) => path.resolve(f) !== self)
      .map((f) => readFileSync(f, 'utf8'));
    const uncalled = APPS.flatMap((app) =>
      routes[app]
        .filter((r) => !allowed(app, `${r.method.toUpperCase()} ${r.path}`))
        .filter((r) => !sources.some((text) => calledPattern(r.path).test(text)))
        .map((r) => `${app}: ${r.method.toUpperCase()} ${r.path}`),
    );
    assert.deepEqual(uncalled, [], 'routes no file under test/ calls');
  });

  it('the docs have a row for each route of each app', () => {
    const documented = documentedRoutes();
    const missing = APPS.flatMap((app) =>
      routes[app]
        .map((r) => `${r.method.toUpperCase()} ${r.path}`)
        .filter((key) => !documented[app].has(key) && !allowed(app, key))
        .map((key) => `${app}: ${key}`),
    );
    assert.deepEqual(missing, [], "routes without a docs row (see this file's header for where each kind goes)");
  });

  it('the rules see what they are meant to see', () => {
    assert.ok(calledPattern('/system/user/:id/roles').test('.post(`/system/user/${id}/roles`)'));
    assert.ok(calledPattern('/auth/login').test('fetch(`${base}/auth/login`, {'));
    assert.ok(calledPattern('/open/echo').test("'/open/echo?ref=A-1001'"));
    assert.ok(calledPattern('/').test(".get('/')"));
    assert.ok(!calledPattern('/').test(".get('/auth/me')"), 'the root path is not every path');
    assert.ok(!calledPattern('/orders').test("'/orders/archive'"), 'a longer path is another route');
    assert.ok(!calledPattern('/user/sessions/:tokenId').test("'/user/sessions'"));
    assert.ok(!calledPattern('/system/user/:id/roles').test("'/system/user/a/b/roles'"), 'a parameter is one segment');
    assert.deepEqual(ALLOWED_GAPS, []);
  });
});
