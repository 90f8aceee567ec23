/**
 * Routes are typed from their declarations (issue 24, point 2). `npm run typecheck` compiles this
 * file: each `@ts-expect-error` line is a handler that must not compile, and the directive itself
 * fails the type check if the line ever compiles. The runtime part shows the typed input is what
 * the request carried.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { z } from 'zod';
import { parseCidrList } from '../../src/adapters/koa/client-ip';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { ProblemResponder } from '../../src/adapters/koa/responders';
import { route, type PathParams, type RouteDef } from '../../src/adapters/koa/routes';
import { silentLogger } from '../../src/adapters/logging/pino-logger';

/** Compiles only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;

const Body = z.object({ name: z.string(), tags: z.array(z.string()).default([]) }).strict();
const Query = z.object({ page: z.coerce.number().int().default(1) });
const Answer = z.object({ id: z.string(), name: z.string(), page: z.number(), done: z.literal(true) });

/** The fields every probe route below shares. */
const GET = { method: 'get', summary: 'w' } as const;

describe('route(): types inferred from the declaration', () => {
  it('path parameters come from the path literal; a path that is not a literal has none', () => {
    assert.ok(same<PathParams<'/system/user/:id/roles'>, { readonly id: string }>(true));
    assert.ok(same<PathParams<'/a/:x/b/:y'>, { readonly x: string; readonly y: string }>(true));
    assert.ok(same<PathParams<'/v3/api-docs'>, {}>(true)); // eslint-disable-line @typescript-eslint/no-empty-object-type
    assert.ok(same<PathParams<string>, {}>(true)); // eslint-disable-line @typescript-eslint/no-empty-object-type
  });

  it('does not compile a handler that returns the wrong shape, reads a body field or a path parameter that is not declared', () => {
    const wrong: RouteDef[] = [
      // @ts-expect-error -- a field of the response is missing
      route({ ...GET, path: '/w/:id', response: Answer, handler: async (_c, { params }) => ({ id: params.id, name: 'n', page: 1 }) }),
      // @ts-expect-error -- a field has the wrong type
      route({ ...GET, path: '/w', response: Answer, handler: async () => ({ id: 1, name: 'n', page: 1, done: true }) }),
      // @ts-expect-error -- a literal field holds another value
      route({ ...GET, path: '/w', response: Answer, handler: async () => ({ id: '1', name: 'n', page: 1, done: false }) }),
      // @ts-expect-error -- an array where the response is an object
      route({ method: 'get', path: '/w', summary: 'w', response: Answer, handler: async () => [] }),
      // @ts-expect-error -- `nope` is not a field of the body
      route({ method: 'post', path: '/w', summary: 'w', body: Body, response: z.string(), handler: async (_ctx, { body }) => body.nope }),
      // @ts-expect-error -- the route declares no body
      route({ method: 'post', path: '/w', summary: 'w', response: z.string(), handler: async (_ctx, { body }) => body.name }),
      // @ts-expect-error -- `size` is not a parameter of the query
      route({ ...GET, path: '/w', query: Query, response: z.number(), handler: async (_c, { query }) => query.size }),
      // @ts-expect-error -- `userId` is not a parameter of the path
      route({ method: 'get', path: '/w/:id', summary: 'w', response: z.string(), handler: async (_ctx, { params }) => params.userId }),
      // @ts-expect-error -- a raw route's path parameters are typed too
      route({ ...GET, path: '/w/:file', raw: { content: {} }, handler: async (ctx, { params }) => void (ctx.body = params.name) }),
      // @ts-expect-error -- a 204 route returns nothing
      route({ method: 'delete', path: '/w/:id', summary: 'w', successStatus: 204, handler: async (_ctx, { params }) => params.id }),
      // @ts-expect-error -- a JSON route declares its response
      route({ method: 'get', path: '/w', summary: 'w', handler: async () => ({}) }),
      // @ts-expect-error -- a RouteDef is made by route() only
      { method: 'get', path: '/w', summary: 'w', response: z.string(), handler: async () => 'w' },
    ];
    assert.equal(wrong.length, 12);
  });

  describe('the handler gets what the request carried, typed', () => {
    const seen: unknown[] = [];
    const routes: RouteDef[] = [
      route({
        method: 'post',
        path: '/things/:id/names',
        summary: 'typed input',
        body: Body,
        query: Query,
        successStatus: 201,
        response: Answer,
        handler: async (_ctx, { body, query, params }) => {
          const tags: readonly string[] = body.tags; // the schema's output: the default applied
          seen.push(tags);
          return { id: params.id, name: body.name, page: query.page, done: true };
        },
      }),
      route({
        method: 'delete',
        path: '/things/:id',
        summary: 'no content',
        successStatus: 204,
        handler: async (_ctx, { params }) => {
          seen.push(params.id);
        },
      }),
      route({
        method: 'get',
        path: '/files/:file',
        summary: 'raw',
        raw: { content: { 'text/plain': z.string() } },
        handler: async (ctx, { params }) => {
          ctx.type = 'text/plain';
          ctx.body = `file ${params.file}`;
        },
      }),
    ];
    const responder = new ProblemResponder('urn:p:');
    const trustedProxies = parseCidrList([]);
    const app = createHttpApp({ realm: 'web', responder, routes, trustedProxies, bodyLimitBytes: 4096, log: silentLogger });

    it('body, query and params of a JSON route; params of a 204 and a raw route', async () => {
      const created = await request(app.callback()).post('/things/a%20b/names?page=3').send({ name: 'n' }).expect(201);
      assert.deepEqual(created.body, { id: 'a b', name: 'n', page: 3, done: true });
      await request(app.callback()).delete('/things/7').expect(204);
      const file = await request(app.callback()).get('/files/x.txt').expect(200);
      assert.equal(file.text, 'file x.txt');
      assert.deepEqual(seen, [[], '7']);
    });
  });
});
