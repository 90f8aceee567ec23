/**
 * Hostile input on every route of both apps: property-based bodies, query strings and headers.
 * Invariant: never a 5xx, always the app's own format, the process stays up, no prototype pollution.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import { createHttpServer } from '../../src/adapters/koa/http-server';
import type { RouteDef } from '../../src/adapters/koa/routes';
import type { BuiltApp } from '../../src/main/admin';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

type Format = 'envelope' | 'problem';

function assertAppFormat(format: Format, res: { status: number; headers: Record<string, string>; text: string }, what: string): void {
  assert.ok(res.status < 500, `${what}: got ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status < 400) return;
  const type = res.headers['content-type'] ?? '';
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (format === 'envelope') {
    assert.match(type, /^application\/json/, what);
    assert.equal(typeof body.code, 'number', what);
    assert.notEqual(body.code, 0, what);
    assert.equal(body.data, null, what);
    assert.equal(typeof body.message, 'string', what);
  } else {
    assert.match(type, /^application\/problem\+json/, what);
    assert.equal(body.status, res.status, what);
    for (const m of ['type', 'title', 'detail', 'instance']) assert.equal(typeof body[m], 'string', `${what}: ${m}`);
  }
}

const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 64 });
const junkToken = fc.oneof(
  ascii,
  fc.uuid().map((u) => `Bearer ${u}`),
  ascii.map((s) => `Bearer ${s}`),
  fc.constant(`Bearer ${'a'.repeat(8200)}`),
  fc.constant('Basic dXNlcjpwYXNz'),
);
const hostileJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')),
  fc.record({ username: fc.oneof(ascii, fc.integer(), fc.constant(null), fc.array(ascii)), password: fc.oneof(ascii, fc.base64String({ maxLength: 2000 }), fc.constant('A'.repeat(100_000))) }),
  fc.integer({ min: 2, max: 3000 }).map((d) => JSON.parse('['.repeat(d) + ']'.repeat(d)) as unknown),
);
const rawBody = fc.oneof(
  hostileJson.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)), // invalid UTF-8 and NUL bytes
  fc.constant(Buffer.from('{"a":"\u0000\ud800"}')),
  fc.constant(Buffer.alloc(2 * 1024 * 1024, 0x61)),
);
const headerSet = fc.record(
  {
    authorization: junkToken,
    'x-app-key': ascii,
    'x-timestamp': fc.oneof(fc.constant('-1'), fc.constant('99999999999999999999'), fc.constant('1e3'), fc.integer().map(String), ascii),
    'x-nonce': ascii,
    'x-sign': fc.oneof(ascii, fc.stringMatching(/^[0-9a-f]{64}$/), fc.constant('zz'.repeat(32))),
    'x-idempotent-token': ascii,
    'idempotency-key': ascii,
    'x-echo': fc.constant('<script>alert(1)</script>'),
    'x-forwarded-for': fc.oneof(ascii, fc.constant('1.2.3.4, <x>, ::1')),
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/json; charset=latin-99'),
  },
  { requiredKeys: [] },
);
const query = fc.dictionary(fc.oneof(ascii, fc.constant('__proto__')), fc.oneof(ascii, fc.constant('<img src=x onerror=alert(1)>')), { maxKeys: 4 });
const pathParam = fc.oneof(ascii.filter((s) => s.length > 0), fc.constant('..%2f..%2fetc'), fc.constant('%00'), fc.constant('x'.repeat(3000)));

function concretePath(template: string, param: string): string {
  return template.replace(/:[A-Za-z_]+/g, encodeURIComponent(param));
}

describe('hostile input on every route of both apps', function () {
  this.timeout(180_000);
  let infra: TestInfra;
  let apps: Record<'admin' | 'web', BuiltApp>;
  let validTokens: Record<'admin' | 'web', string>;

  before(async () => {
    const config = testConfig({ 'svc.body-limit-bytes': 64 * 1024 });
    infra = testInfra(config, { label: 'hostile' });
    apps = buildBoth(config, infra);
    const managers = apps.admin.container.get(TOKENS.SessionManagers);
    const principal = { userId: 'fuzz', username: 'fuzz', roles: ['admin'], permissions: ['*:*:*'] };
    validTokens = { admin: (await managers.get('admin').login(principal)).token, web: (await managers.get('web').login(principal)).token };
  });
  after(async () => infra?.dispose());

  for (const name of ['admin', 'web'] as const) {
    const format: Format = name === 'admin' ? 'envelope' : 'problem';
    it(`${name}: every route survives generated bodies, queries and headers`, async () => {
      const routes: readonly RouteDef[] = apps[name].routes;
      assert.ok(routes.length > 0);
      const cb = apps[name].app.callback();
      for (const route of routes) {
        await fc.assert(
          fc.asyncProperty(rawBody, headerSet, query, pathParam, fc.boolean(), async (body, headers, q, param, authed) => {
            const path = concretePath(route.path, param);
            let req = request(cb)[route.method](path).query(q);
            for (const [k, v] of Object.entries(headers)) req = req.set(k, v as string);
            if (authed) req = req.set('Authorization', `Bearer ${validTokens[name]}`);
            if (route.method !== 'get') req = req.send(body);
            const res = await req;
            assertAppFormat(format, res as never, `${route.method.toUpperCase()} ${route.path}`);
            assert.equal(({} as Record<string, unknown>).polluted, undefined, 'prototype pollution');
          }),
          { numRuns: 40 },
        );
      }
      // unknown paths and methods too
      await fc.assert(
        fc.asyncProperty(fc.webPath(), fc.constantFrom('get', 'post', 'put', 'patch', 'delete') as fc.Arbitrary<'get'>, async (p, m) => {
          const res = await request(cb)[m](p.startsWith('/') ? p : `/${p}`);
          assertAppFormat(format, res as never, `${m} ${p}`);
        }),
        { numRuns: 60 },
      );
    });
  }

  describe('requests Node\'s own parser rejects still get the app\'s format', () => {
    for (const name of ['admin', 'web'] as const) {
      const format: Format = name === 'admin' ? 'envelope' : 'problem';
      const raw = async (payload: string | Buffer): Promise<{ status: number; headers: Record<string, string>; text: string }> => {
        const server = createHttpServer(apps[name].app.callback(), { format, problemBaseUri: 'https://authguard.example/problems/' });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        try {
          const port = (server.address() as AddressInfo).port;
          const text = await new Promise<string>((resolve, reject) => {
            const s = net.connect(port, '127.0.0.1', () => s.end(payload));
            let buf = '';
            s.on('data', (d) => (buf += d.toString('latin1')));
            s.on('end', () => resolve(buf));
            s.on('error', reject);
          });
          const [head = '', body = ''] = text.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers: Record<string, string> = {};
          for (const l of lines) {
            const i = l.indexOf(':');
            headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
          }
          return { status: Number(statusLine.split(' ')[1]), headers, text: body };
        } finally {
          await new Promise((r) => server.close(r));
        }
      };
      it(`${name}: header injection (CR/LF in a header value)`, async () => {
        const res = await raw('GET /auth/me HTTP/1.1\r\nHost: x\r\nX-Evil: a\rSet-Cookie: pwned=1\r\n\r\n');
        assert.ok(res.status >= 400 && res.status < 500);
        assertAppFormat(format, res, 'CR in header');
        assert.ok(!('set-cookie' in res.headers));
      });
      it(`${name}: NUL byte in the request line`, async () => {
        const res = await raw(Buffer.from('GET /a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'));
        assertAppFormat(format, res, 'NUL in path');
        assert.equal(res.status, 400);
      });
      it(`${name}: headers over Node's limit -> 431 in the app's format`, async () => {
        const res = await raw(`GET /auth/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        assert.equal(res.status, 431);
        assertAppFormat(format, res, '431');
      });
      it(`${name}: an 8 KB header reaches the app and is answered normally`, async () => {
        const res = await raw(`GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: ${'a'.repeat(8 * 1024)}\r\n\r\n`);
        assert.equal(res.status, 404);
        assertAppFormat(format, res, '8KB header');
      });
    }
  });
});
