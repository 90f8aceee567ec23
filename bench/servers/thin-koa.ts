/**
 * Reference floor, not a peer: the least any implementation of the authenticated, permission-checked
 * GET must do — Koa + @koa/router, the bearer token looked up (an in-process Map, or one ioredis GET
 * with auto-pipelining: the fastest Redis variant measured), a permission set checked, a JSON body.
 * No request id, access log, metrics, security headers, XSS filter or error edge.
 * Usage: node bench/.build/bench/servers/thin-koa.js <memory|redis>
 */
import Koa from 'koa';
import Router from '@koa/router';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

interface Session {
  userId: string;
  permissions: string[];
}

async function main(): Promise<void> {
  const store = process.argv[2] === 'redis' ? 'redis' : 'memory';
  const token = randomUUID();
  const session: Session = { userId: 'bench-1', permissions: ['system:user:list'] };
  const map = new Map<string, string>([[token, JSON.stringify(session)]]);
  const redis = store === 'redis' ? new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true }) : null;
  const key = `agbench-thin:${process.pid}:${token}`;
  if (redis) await redis.set(key, JSON.stringify(session), 'EX', 3600);
  const app = new Koa();
  const router = new Router();
  router.get('/system/user/list', async (ctx) => {
    const auth = ctx.get('Authorization');
    const presented = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const raw = redis ? (presented === token ? await redis.get(key) : null) : (map.get(presented) ?? null);
    if (raw === null) {
      ctx.status = 401;
      ctx.body = { code: 401, message: 'not logged in', data: null };
      return;
    }
    const s = JSON.parse(raw) as Session;
    if (!new Set(s.permissions).has('system:user:list')) {
      ctx.status = 403;
      ctx.body = { code: 403, message: 'forbidden', data: null };
      return;
    }
    ctx.body = { code: 0, message: 'ok', data: { rows: [{ userId: s.userId }], total: 1 } };
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1', () => {
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port, token });
  });
  const stop = (): void => {
    if (!redis) process.exit(0);
    else void redis.del(key).finally(() => process.exit(0));
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
