/* eslint-disable @typescript-eslint/no-explicit-any -- the tests walk a parsed JSON document */
/**
 * What the live API descriptions say a route answers: every JSON success payload is described (a
 * named component with a description and a valid example), and every status a route can answer is
 * declared, derived from its guards' and its handler's reasons, so a new guard adds its statuses.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { z } from 'zod';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { toOpenApiPath } from '../../src/adapters/koa/openapi';
import { route, type RouteDef } from '../../src/adapters/koa/routes';
import type { Reason } from '../../src/domain/errors';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- Ajv's 2020-12 build has no ESM entry for this setup
const Ajv2020 = require('ajv/dist/2020') as typeof import('ajv/dist/2020').default;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS plugin
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
type Apps = ReturnType<typeof buildBoth>;
const APPS = ['admin', 'web'] as const;
const ERROR_SCHEMAS = new Set(['ErrorEnvelope', 'Problem', 'FieldErrors']);

/** A schema that says something: a type, a reference, properties or alternatives (never `{}`). */
function described(schema: any): boolean {
  return (
    schema !== null && typeof schema === 'object' && ['type', '$ref', 'properties', 'anyOf', 'oneOf', 'allOf'].some((k) => k in schema)
  );
}

function operationOf(doc: Doc, def: RouteDef): any {
  const op = doc.paths[toOpenApiPath(def.path).path]?.[def.method];
  assert.ok(op, `${def.method.toUpperCase()} ${def.path} is not documented`);
  return op;
}

/** The statuses a route's own declarations imply, computed here from the catalogue. */
function impliedStatuses(def: RouteDef): Set<number> {
  const reasons: Reason[] = [...(def.guards ?? []).flatMap((g) => [...g.doc.reasons]), ...(def.raises ?? [])];
  if (def.body) reasons.push('validation-failed', 'malformed-json', 'payload-too-large', 'unsupported-media-type');
  reasons.push('internal-error');
  return new Set(reasons.map((r) => ERROR_CATALOGUE[r].status));
}

describe('OpenAPI: success payloads and derived statuses', () => {
  let infra: TestInfra;
  let apps: Apps;
  const docs: Partial<Record<(typeof APPS)[number], Doc>> = {};
  const docOf = (name: (typeof APPS)[number]): Doc => docs[name] as Doc;
  before(async () => {
    const config = testConfig();
    infra = testInfra(config, { label: 'openapi-responses' });
    apps = buildBoth(config, infra);
    for (const name of APPS) docs[name] = (await request(apps[name].app.callback()).get('/v3/api-docs').expect(200)).body as Doc;
  });
  after(async () => infra?.dispose());

  for (const name of APPS) {
    it(`${name}: no JSON success response has an empty schema (the envelope's data included)`, () => {
      let checked = 0;
      for (const def of apps[name].routes) {
        const op = operationOf(docOf(name), def);
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (!/^2/.test(status)) continue;
          if (status === '204') {
            assert.equal(response.content, undefined, `${def.path}: 204 carries no content`);
            continue;
          }
          assert.ok(
            response.content && Object.keys(response.content).length > 0,
            `${def.method} ${def.path} ${status} declares no content`,
          );
          for (const [type, media] of Object.entries<any>(response.content)) {
            assert.ok(described(media.schema), `${def.method} ${def.path} ${status} ${type}: empty schema`);
            if (type === 'application/json' && name === 'admin' && !def.raw) {
              assert.deepEqual(media.schema.properties.code.enum, [0]);
              assert.ok(described(media.schema.properties.data), `${def.method} ${def.path}: the envelope's data is not described`);
            }
            checked++;
          }
        }
      }
      assert.ok(checked >= 18, `only ${checked} success payloads`);
    });

    it(`${name}: each route declares the statuses of its guards' and its handler's reasons`, () => {
      for (const def of apps[name].routes) {
        const declared = Object.keys(operationOf(docOf(name), def).responses).map(Number);
        for (const s of impliedStatuses(def))
          assert.ok(declared.includes(s), `${def.method.toUpperCase()} ${def.path} does not declare ${s}`);
      }
    });

    it(`${name}: every named success schema has a description and an example that is valid against it (Ajv 2020-12)`, () => {
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      ajv.addFormat('binary', true);
      ajv.addVocabulary(['example', 'components']);
      const schemas = docOf(name).components.schemas;
      ajv.addSchema({ $id: 'doc', components: { schemas } });
      const named = Object.keys(schemas).filter((n) => !ERROR_SCHEMAS.has(n));
      assert.ok(named.length >= 15, named.join());
      for (const n of named) {
        const s = schemas[n];
        assert.ok(typeof s.description === 'string' && s.description.length > 0, `${n} has no description`);
        assert.ok('example' in s, `${n} has no example`);
        const validate = ajv.getSchema(`doc#/components/schemas/${n}`);
        assert.ok(validate, n);
        assert.ok(validate(s.example), `${n}: its example is not valid: ${JSON.stringify(validate.errors)}`);
      }
      // The check can fail: a wrong example is refused.
      const user = ajv.getSchema('doc#/components/schemas/' + (name === 'admin' ? 'UserPage' : 'TokenPair'));
      assert.equal(user?.({ total: 'one' }), false);
    });
  }

  it('a wrong password, an invalid refresh token and an unknown user are declared where they happen', () => {
    for (const name of APPS) {
      const login = docOf(name).paths['/auth/login']?.post;
      assert.match(login.responses['401'].description, /bad-credentials/, `${name} login`);
      assert.match(login.responses['429'].description, /account-locked/);
      const refresh = docOf(name).paths['/auth/refresh-token']?.post;
      assert.match(refresh.responses['401'].description, /refresh-token-invalid/, `${name} refresh`);
      assert.match(refresh.responses['401'].description, /refresh-token-reused/);
    }
    assert.match(docOf('admin').paths['/auth/login']?.post.responses['400'].description, /captcha-wrong/);
    const roles = docOf('admin').paths['/system/user/{id}/roles']?.post;
    assert.match(roles.responses['404'].description, /user-not-found/);
    assert.match(docOf('admin').paths['/system/user/{id}/disable']?.post.responses['404'].description, /user-not-found/);
    assert.match(docOf('admin').paths['/system/user']?.post.responses['409'].description, /username-taken/);
    assert.match(docOf('web').paths['/auth/register']?.post.responses['409'].description, /username-taken/);
    assert.match(docOf('web').paths['/user/sessions/{tokenId}']?.delete.responses['404'].description, /not-found/);
    assert.match(docOf('web').paths['/orders']?.post.responses['409'].description, /idempotency-token-session-mismatch/);
  });

  it('429 declares Retry-After and the RateLimit headers wherever a limit applies', () => {
    for (const name of APPS) {
      for (const def of apps[name].routes.filter((d) => (d.guards ?? []).some((g) => g.doc.kind === 'rate-limit'))) {
        const op = operationOf(docOf(name), def);
        const headers = op.responses['429']?.headers ?? {};
        assert.equal(headers['Retry-After']?.required, true, `${def.path}: Retry-After`);
        for (const h of ['RateLimit', 'RateLimit-Policy']) {
          assert.ok(headers[h], `${def.path} 429: ${h}`);
          assert.ok(op.responses[String(def.successStatus ?? 200)].headers[h], `${def.path} success: ${h}`);
        }
      }
    }
  });

  it('raw routes declare their exact content types; readiness declares 503 DOWN', async () => {
    const admin = docOf('admin');
    const asset = admin.paths['/swagger-ui/{file}']?.get.responses['200'].content;
    assert.deepEqual(Object.keys(asset).sort(), ['application/javascript', 'image/png', 'text/css', 'text/html']);
    const css = await request(apps.admin.app.callback()).get('/swagger-ui/swagger-ui.css').expect(200);
    assert.ok(Object.keys(asset).includes((css.headers['content-type'] ?? '').split(';')[0] as string));
    assert.ok(admin.paths['/actuator/prometheus']?.get.responses['200'].content['text/plain']);
    const ready = admin.paths['/actuator/health/readiness']?.get.responses;
    assert.equal(ready['503'].content['application/json'].schema.$ref, '#/components/schemas/HealthReport');
    assert.equal(ready['200'].content['application/json'].schema.$ref, '#/components/schemas/HealthReport');
    assert.equal(admin.paths['/actuator/health/liveness']?.get.responses['503'], undefined);
    assert.equal(
      docOf('web').paths['/problems/{reason}']?.get.responses['200'].content['text/html'].schema.$ref,
      '#/components/schemas/HtmlPage',
    );
  });

  it('the success payloads are the named components (Page<User>, TokenPair, ...)', () => {
    const ref = (doc: Doc, p: string, m: string, s = '200') => doc.paths[p]?.[m].responses[s].content['application/json'].schema;
    assert.equal(ref(docOf('admin'), '/auth/login', 'post').properties.data.$ref, '#/components/schemas/LoginAnswer');
    assert.equal(ref(docOf('admin'), '/system/user/list', 'get').properties.data.$ref, '#/components/schemas/UserPage');
    assert.equal(ref(docOf('admin'), '/monitor/online', 'get').properties.data.$ref, '#/components/schemas/OnlineSessionPage');
    assert.equal(ref(docOf('web'), '/auth/login', 'post').$ref, '#/components/schemas/WebLoginAnswer');
    assert.equal(ref(docOf('web'), '/orders', 'post', '201').$ref, '#/components/schemas/Order');
    assert.equal(ref(docOf('web'), '/idempotent/token', 'get').$ref, '#/components/schemas/IdempotencyToken');
  });

  it('a JSON route without a response schema does not compile', () => {
    // @ts-expect-error -- `response` is required on a JSON route
    const missing: RouteDef = route({ method: 'get', path: '/x', summary: 'x', handler: async () => ({}) });
    const withNone: RouteDef = route({ method: 'delete', path: '/x', summary: 'x', successStatus: 204, handler: async () => {} });
    const described: RouteDef = route({
      method: 'get',
      path: '/x',
      summary: 'x',
      response: z.object({ x: z.string() }),
      handler: async () => ({ x: '' }),
    });
    assert.ok(missing && withNone && described);
  });
});
