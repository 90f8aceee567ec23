import assert from 'node:assert/strict';
import { guard } from '../../src/adapters/koa/guards';
import { describeOperation, globalTags, OperationIds, TAG_DESCRIPTIONS } from '../../src/adapters/koa/openapi-meta';
import type { RouteDef } from '../../src/adapters/koa/routes';

const noop = () => async (_ctx: unknown, next: () => Promise<unknown>) => next();
const route = (over: Partial<RouteDef>): RouteDef => ({ method: 'get', path: '/x', summary: 'Does x', handler: async () => ({}), ...over });

describe('OpenAPI document-level parts', () => {
  it('describes an operation from its summary and, in order, what each guard requires', () => {
    const def = route({
      summary: 'Create a user',
      guards: [
        guard({ kind: 'login', loginType: 'admin', header: 'Authorization', prefix: 'Bearer' }, noop()),
        guard({ kind: 'permission', loginType: 'admin', permissions: ['system:user:add', 'system:user:edit'], mode: 'OR' }, noop()),
        guard({ kind: 'rate-limit', key: 'login', limit: 5, windowSeconds: 60, limitType: 'IP' }, noop()),
        guard({ kind: 'idempotency', idempotency: 'PARAM', ttlSeconds: 5 }, noop()),
      ],
    });
    const [summary, rules] = describeOperation(def).split('\n\n');
    assert.equal(summary, 'Create a user.');
    assert.equal(
      rules,
      'Requires a session of login type `admin`: its access token as `Authorization: Bearer <token>`. Requires permission `system:user:add` or `system:user:edit`. ' +
        'Rate limit `login`: 5 requests per 60 s per client IP; every answer carries `RateLimit-Policy` and `RateLimit`, and beyond the limit it answers 429 with `Retry-After`. ' +
        'Duplicate-submission lock (PARAM): the same caller sending the same request while it runs and for 5 s after gets 409 `duplicate-submission`.',
    );
  });

  it('says so when an operation needs no session, and names a switched-off signature check', () => {
    assert.equal(describeOperation(route({ summary: 'Health?' })), 'Health?\n\nPublic: no session needed.');
    const signed = describeOperation(route({ guards: [guard({ kind: 'signature', enabled: false }, noop())] }));
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
});
