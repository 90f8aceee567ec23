import assert from 'node:assert/strict';
import Koa from 'koa';
import request from 'supertest';
import { buildRouter, route, type RouteDef } from '../../src/adapters/koa/routes';
import type { AppState } from '../../src/adapters/koa/state';
import { z } from 'zod';

/** The router remembers matches per method and path: repeated requests must route exactly as the first. */
describe('route matching memo', () => {
  const routes: RouteDef[] = [
    route({
      method: 'get',
      path: '/items/:id',
      summary: 'get',
      raw: { content: { 'application/json': z.record(z.unknown()) } },
      handler: async (ctx, { params }) => {
        ctx.body = { get: params.id };
      },
    }),
    route({
      method: 'post',
      path: '/items/:id',
      summary: 'post',
      raw: { content: { 'application/json': z.record(z.unknown()) } },
      handler: async (ctx, { params }) => {
        ctx.body = { post: params.id };
      },
    }),
    route({
      method: 'get',
      path: '/mutate/:id',
      summary: 'mutate',
      raw: { content: { 'application/json': z.record(z.unknown()) } },
      handler: async (ctx) => {
        const seen = { ...ctx.params };
        (ctx.params as Record<string, string>).leak = 'x'; // must not reach the next request
        ctx.body = seen;
      },
    }),
    route({
      method: 'get',
      path: '/static',
      summary: 'static',
      raw: { content: { 'application/json': z.record(z.unknown()) } },
      handler: async (ctx) => {
        ctx.body = { route: (ctx as { _matchedRoute?: string })._matchedRoute };
      },
    }),
  ];
  const router = buildRouter(routes);
  const app = new Koa<AppState>();
  app.use(router.routes());
  app.use(router.allowedMethods());
  const server = app.callback();

  it('params, route templates, 405 and 404 stay right on repeated and many distinct paths', async () => {
    for (let round = 0; round < 3; round++) {
      assert.deepEqual((await request(server).get('/items/a%20b')).body, { get: 'a b' });
      assert.deepEqual((await request(server).post('/items/7')).body, { post: '7' });
      assert.deepEqual((await request(server).get('/static')).body, { route: '/static' });
      assert.equal((await request(server).put('/items/7')).status, 405);
      assert.equal((await request(server).get('/nowhere')).status, 404);
    }
    // More distinct paths than the memo holds: it is dropped and refilled, answers stay right.
    for (let i = 0; i < 1100; i += 37) assert.deepEqual((await request(server).get(`/items/${i}`)).body, { get: String(i) });
    for (let i = 0; i < 1100; i++) router.match(`/items/${i}`, 'GET');
    assert.deepEqual((await request(server).get('/items/last')).body, { get: 'last' });
    assert.equal((await request(server).delete('/static')).status, 405);
  });

  it('reuses the composed chain of a remembered match, with fresh params and matched layers per request', async () => {
    for (let round = 0; round < 3; round++) {
      assert.deepEqual((await request(server).get('/mutate/1')).body, { id: '1' });
      assert.deepEqual((await request(server).get('/mutate/2')).body, { id: '2' });
    }
  });

  it('hands out fresh arrays: what a request does to ctx.matched does not reach the next one', () => {
    const first = router.match('/static', 'GET');
    first.path.length = 0;
    first.pathAndMethod.length = 0;
    const second = router.match('/static', 'GET');
    assert.equal(second.route, true);
    assert.equal(second.pathAndMethod.length, 1);
    assert.equal(second.path.length, 1);
  });
});
