/**
 * Search terms a route declares (`searchTerms`) reach its validated query as the client sent them; everything else
 * the input filter rewrites stays rewritten (docs/request-protection.md#input-filter-xss).
 */
import assert from 'node:assert/strict';
import Koa from 'koa';
import request from 'supertest';
import { z } from 'zod';
import { buildRouter, route } from '../../src/adapters/koa/routes';
import { DomainError } from '../../src/domain/errors';
import type { AppState } from '../../src/adapters/koa/state';
import { xssFilter } from '../../src/adapters/koa/xss-filter';
import { accessApp, type AccessApp } from '../support/access-apps';

describe('XSS input filter: search terms', function () {
  this.timeout(60_000);

  describe('a route declaring searchTerms', () => {
    const app = new Koa<AppState>();
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (e) {
        ctx.status = e instanceof DomainError && e.reason === 'validation-failed' ? 400 : 500;
      }
    });
    app.use(xssFilter({ enabled: true, excludePaths: [], exemptHeaders: [] }));
    const router = buildRouter([
      route({
        method: 'get',
        path: '/search',
        summary: 'echo',
        query: z.object({ q: z.string().max(10).optional(), list: z.array(z.string()).optional(), other: z.string().optional() }),
        searchTerms: ['q', 'list'],
        raw: { content: { 'application/json': z.record(z.unknown()) } },
        handler: async (ctx, { query }) => {
          ctx.body = { input: query, ctx: ctx.query, header: ctx.get('X-Echo') };
        },
      }),
    ]);
    app.use(router.routes());
    const call = () => request(app.callback()).get('/search');

    it('gets its search terms as sent, the other parameters, ctx.query and headers escaped', async () => {
      const res = await call()
        .query({ q: `R&D <b>'s`, list: ['a&b', '<i>'], other: '<b>' })
        .set('X-Echo', '<x>')
        .expect(200);
      assert.deepEqual(res.body.input, { q: `R&D <b>'s`, list: ['a&b', '<i>'], other: '&lt;b&gt;' });
      assert.deepEqual(res.body.ctx, { q: 'R&amp;D &lt;b&gt;&#39;s', list: ['a&amp;b', '&lt;i&gt;'], other: '&lt;b&gt;' });
      assert.equal(res.body.header, '&lt;x&gt;');
    });

    it('validates the raw value (its length as sent), and leaves absent terms absent', async () => {
      const ten = '&'.repeat(10);
      assert.deepEqual((await call().query({ q: ten, other: '&' }).expect(200)).body.input, { q: ten, other: '&amp;' });
      assert.equal((await call().query({ q: `${ten}&` })).status, 400);
      assert.deepEqual((await call().query({ other: '"' }).expect(200)).body.input, { other: '&quot;' });
      assert.deepEqual((await call().query({ q: 'plain' }).expect(200)).body.input, { q: 'plain' });
    });
  });

  describe("the back office's list filters", () => {
    let t: AccessApp | undefined;
    after(async () => t?.dispose());

    // Each at its longest: escaped, `&` would be five characters and the value too long (400 validation-failed).
    const FILTERS: readonly (readonly [string, string, number])[] = [
      ['/system/user', 'username', 64],
      ['/system/user', 'role', 64],
      ['/system/role', 'key', 64],
      ['/system/role', 'name', 64],
      ['/monitor/online', 'username', 64],
      ['/monitor/online', 'ip', 45],
      ['/monitor/login-logs', 'username', 64],
      ['/monitor/login-logs', 'ip', 45],
      ['/monitor/operation-logs', 'actor', 64],
      ['/monitor/operation-logs', 'action', 64],
      ['/monitor/operation-logs', 'target', 128],
    ];

    it('take their search terms as sent: the longest term of & is valid, one more character is not', async () => {
      t = await accessApp('file', 'memory');
      const admin = { Authorization: `Bearer ${await t.sessionOf('admin')}` };
      for (const [path, name, max] of FILTERS) {
        const call = (value: string) =>
          request((t as AccessApp).app.app.callback())
            .get(path)
            .query({ [name]: value })
            .set(admin);
        const ok = await call('&'.repeat(max));
        assert.equal(ok.status, 200, `${path}?${name}=&×${max}: ${ok.text.slice(0, 200)}`);
        assert.equal(ok.body.code, 0, `${path}?${name}: ${ok.text.slice(0, 200)}`);
        const long = await call('&'.repeat(max + 1));
        assert.equal(long.status, 400, `${path}?${name}=&×${max + 1}: ${long.text.slice(0, 200)}`);
      }
    });

    it('GET /system/role?name=Q%26A%20%3C finds the role named "Q&A <team>"', async () => {
      const admin = { Authorization: `Bearer ${await (t as AccessApp).sessionOf('admin')}` };
      const http = () => request((t as AccessApp).app.app.callback());
      await http().post('/system/role').set(admin).send({ key: 'qa', name: 'Q&A <team>' }).expect(201);
      const res = await http().get('/system/role').query({ name: 'Q&A <' }).set(admin).expect(200);
      assert.deepEqual(
        res.body.data.list.map((r: { key: string }) => r.key),
        ['qa'],
      );
    });
  });
});
