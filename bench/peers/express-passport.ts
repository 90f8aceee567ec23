/**
 * The peer: the same authenticated, permission-checked GET written the way many Node teams do it:
 * Express + Passport + express-session + connect-redis (node-redis client), on the same Redis.
 */
import express from 'express';
import session from 'express-session';
import passport from 'passport';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface BenchUser {
  id: string;
  username: string;
  permissions: string[];
}
const users: Record<string, BenchUser> = { 'bench-1': { id: 'bench-1', username: 'bench', permissions: ['system:user:list'] } };

async function main(): Promise<void> {
  const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
  await client.connect();
  const app = express();
  app.use(express.json());
  app.use(
    session({
      store: new RedisStore({ client, prefix: `agbench-peer:${process.pid}:` }),
      secret: 'bench-only-secret-not-used-anywhere-else',
      resave: false,
      saveUninitialized: false,
    }),
  );
  passport.serializeUser((u, done) => done(null, (u as BenchUser).id));
  passport.deserializeUser((id: string, done) => done(null, users[id] ?? false));
  app.use(passport.session());
  app.post('/login', (req, res, next) => req.login(users['bench-1'] as BenchUser, (err) => (err ? next(err) : res.json({ ok: true }))));
  const requirePermission = (perm: string): express.RequestHandler => (req, res, next) => {
    if (!req.isAuthenticated()) return void res.status(401).json({ code: 401 });
    const u = req.user as BenchUser;
    if (!u.permissions.includes(perm) && !u.permissions.includes('*:*:*')) return void res.status(403).json({ code: 403 });
    next();
  };
  app.get('/system/user/list', requirePermission('system:user:list'), (req, res) => {
    res.json({ code: 0, message: 'ok', data: { user: (req.user as BenchUser).username } });
  });
  const server = app.listen(0, '127.0.0.1', async () => {
    const port = (server.address() as AddressInfo).port;
    const cookie = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/login', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve((res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '');
      });
      req.on('error', reject);
      req.end('{}');
    });
    process.send?.({ ready: true, port, cookie });
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
