/** Baseline: a bare Koa app with one JSON route, none of our middleware. */
import Koa from 'koa';
import type { AddressInfo } from 'node:net';

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/hello') ctx.body = { hello: 'world' };
  else ctx.status = 404;
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, port: (server.address() as AddressInfo).port });
});
