/**
 * Hostile input on every route of both apps: property-based bodies, query strings and headers.
 * Invariant: never a 5xx, always the app's own format, the process stays up, no prototype pollution.
 */
import fc from 'fast-check';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import request from 'supertest';
import { createHttpServer } from '../../src/adapters/koa/http-server';
import type { RouteDef } from '../../src/adapters/koa/routes';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { assertAppFormat, concretePath, headerSet, pathParam, query, rawBody, type Format } from '../support/hostile';

describe('hostile input on every route of both apps', function () {
  this.timeout(180_000);
  let infra: TestInfra;
  let apps: Record<'admin' | 'web', BuiltApp>;
  let validTokens: Record<'admin' | 'web', string>;

  before(async () => {
    const config = testConfig({ 'svc.body-limit-bytes': 64 * 1024 });
    infra = testInfra(config, { label: 'hostile' });
    apps = buildBoth(config, infra);
    const managers = apps.admin.container.get(SessionManagers);
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

  describe("requests Node's own parser rejects still get the app's format", () => {
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
