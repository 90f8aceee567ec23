import assert from 'node:assert/strict';
import { z } from 'zod';
import { guard, type Guard } from '../../src/adapters/koa/guards';
import { describeOperation, globalTags, OperationIds, TAG_DESCRIPTIONS } from '../../src/adapters/koa/openapi-meta';
import { route as declare, type RouteDef } from '../../src/adapters/koa/routes';
import { ConfigError, loadConfig } from '../../src/main/config';
import { licenseOf, serversOf } from '../../src/main/operations';
import { testConfig } from '../support/apps';

const noop = () => async (_ctx: unknown, next: () => Promise<unknown>) => next();
const route = (over: { summary?: string; guards?: readonly Guard[]; tags?: readonly string[] }): RouteDef =>
  declare({ method: 'get', path: '/x', summary: 'Does x', response: z.object({}), handler: async () => ({}), ...over });

describe('OpenAPI document-level parts', () => {
  it('describes an operation from its summary and, in order, what each guard requires', () => {
    const def = route({
      summary: 'Create a user',
      guards: [
        guard({ reasons: [], kind: 'login', loginType: 'admin', header: 'Authorization', prefix: 'Bearer' }, noop()),
        guard(
          { reasons: [], kind: 'permission', loginType: 'admin', permissions: ['system:user:add', 'system:user:edit'], mode: 'OR' },
          noop(),
        ),
        guard({ reasons: [], kind: 'rate-limit', key: 'login', limit: 5, windowSeconds: 60, limitType: 'IP' }, noop()),
        guard({ reasons: [], kind: 'idempotency', idempotency: 'PARAM', ttlSeconds: 5 }, noop()),
      ],
    });
    const [summary, rules] = describeOperation(def).split('\n\n');
    assert.equal(summary, 'Create a user.');
    assert.equal(
      rules,
      'Requires a session of login type `admin`: its access token as `Authorization: Bearer ' +
        '<token>`. Requires permission `system:user:add` or `system:user:edit`. ' +
        ('Rate limit `login`: 5 requests per 60 s per client IP; every answer carries ' +
          '`RateLimit-Policy` and `RateLimit`, and beyond the limit it answers 429 with `Retry-After`. ') +
        ('Duplicate-submission lock (PARAM): the same caller sending the same request while it runs ' +
          'and for 5 s after gets 409 `duplicate-submission`.'),
    );
  });

  it('says so when an operation needs no session, and names a switched-off signature check', () => {
    assert.equal(describeOperation(route({ summary: 'Health?' })), 'Health?\n\nPublic: no session needed.');
    const signed = describeOperation(route({ guards: [guard({ reasons: [], kind: 'signature', enabled: false }, noop())] }));
    assert.match(signed, /^Does x\.\n\nPublic: no session needed\. Signed request: .* Signature checking is off in this deployment/);
  });

  it('lists each used tag once, in order of first use, with its description', () => {
    const tags = globalTags([route({ tags: ['auth'] }), route({ tags: ['docs', 'auth'] }), route({ tags: ['brand-new'] }), route({})]);
    assert.deepEqual(tags, [
      { name: 'auth', description: TAG_DESCRIPTIONS.auth },
      { name: 'docs', description: TAG_DESCRIPTIONS.docs },
      { name: 'brand-new' },
    ]);
  });

  it('gives every route one operationId, none to a repeated method and path, and keeps colliding spellings apart', () => {
    const ids = new OperationIds();
    assert.equal(ids.claim('get', '/system/user/{id}'), 'getSystemUserId');
    assert.equal(ids.claim('get', '/system/user/{id}'), undefined);
    assert.equal(ids.claim('get', '/system/user-id'), 'getSystemUserId2');
    assert.equal(ids.claim('post', '/system/user/{id}'), 'postSystemUserId');
  });

  it('servers: the configured public URL, else the local port (dev/test) or "/" (prod)', () => {
    const cfg = testConfig({ 'svc.security.sign.public-urls': { web: 'https://api.example.com/' } });
    assert.deepEqual(
      serversOf('web', cfg).map((s) => s.url),
      ['https://api.example.com'],
    );
    assert.deepEqual(
      serversOf('admin', cfg).map((s) => s.url),
      ['http://localhost:8080'],
    );
    assert.deepEqual(
      serversOf('admin', { ...cfg, profile: 'prod' }).map((s) => s.url),
      ['/'],
    );
    assert.deepEqual(
      serversOf('web', { ...cfg, profile: 'prod' }).map((s) => s.url),
      ['https://api.example.com'],
    );
    assert.deepEqual(
      serversOf('admin', { ...cfg, adminPort: 0 }).map((s) => s.url),
      ['/'],
    );
  });

  it('licence: an SPDX expression is the name and the identifier; UNLICENSED and SEE LICENSE IN give no License object', () => {
    assert.deepEqual(licenseOf('MIT'), { name: 'MIT', identifier: 'MIT' });
    assert.deepEqual(licenseOf('(MIT OR Apache-2.0)'), { name: '(MIT OR Apache-2.0)', identifier: '(MIT OR Apache-2.0)' });
    assert.equal(licenseOf('UNLICENSED'), undefined, 'nothing is granted: no identifier and no URL to name');
    assert.equal(licenseOf('SEE LICENSE IN LICENSE.txt'), undefined, 'a file in the package is no URL');
    assert.equal(licenseOf(''), undefined);
  });

  it('refuses a contact URL or e-mail that is not one, naming the key', () => {
    try {
      loadConfig({
        env: {
          APP_PROFILE: 'test',
          SVC_OPENAPI_CONTACT_URL: 'ftp://x',
          SVC_OPENAPI_CONTACT_EMAIL: 'nobody',
          SVC_OPENAPI_CONTACT_NAME: ' ',
        },
      });
      assert.fail('expected a ConfigError');
    } catch (e) {
      assert.ok(e instanceof ConfigError, String(e));
      const text = e.problems.join('\n');
      assert.match(text, /svc\.openapi\.contact-url \(SVC_OPENAPI_CONTACT_URL\): expected an http\(s\) URL/);
      assert.match(text, /svc\.openapi\.contact-email \(SVC_OPENAPI_CONTACT_EMAIL\): expected an e-mail address/);
      assert.match(text, /svc\.openapi\.contact-name \(SVC_OPENAPI_CONTACT_NAME\): must not be empty/);
    }
  });
});
