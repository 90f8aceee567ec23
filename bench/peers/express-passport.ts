/**
 * The peer: the same authenticated GETs written the way many Node teams do it: Express + Passport +
 * express-session + connect-redis (node-redis client), on the same Redis.
 * - GET /auth/me: login required, answers the user as the admin app's /auth/me does (same fields,
 *   same envelope): the bench's default path, the same work on both sides.
 * - GET /system/user/list: login + permission system:user:list, answers only the username (lighter
 *   than the admin app's route of that name, which returns a page of users).
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
  roles: string[];
  permissions: string[];
}
/** The same user as the bench's admin servers log in (bench/servers/authguard.ts). */
const users: Record<string, BenchUser> = {
  'bench-1': { id: 'bench-1', username: 'bench', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] },
};

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
  const requirePermission =
    (perm: string): express.RequestHandler =>
    (req, res, next) => {
      if (!req.isAuthenticated()) return void res.status(401).json({ code: 401 });
      const u = req.user as BenchUser;
      if (!u.permissions.includes(perm) && !u.permissions.includes('*:*:*')) return void res.status(403).json({ code: 403 });
      next();
    };
  app.get('/auth/me', (req, res) => {
    if (!req.isAuthenticated()) return void res.status(401).json({ code: 401 });
    const u = req.user as BenchUser;
    res.json({
      code: 0,
      message: 'ok',
      data: { userId: u.id, username: u.username, nickname: u.username, roles: u.roles, permissions: u.permissions },
    });
  });
  app.get('/system/user/list', requirePermission('system:user:list'), (req, res) => {
    res.json({ code: 0, message: 'ok', data: { user: (req.user as BenchUser).username } });
  });
  const server = app.listen(0, '127.0.0.1', async () => {
    const port = (server.address() as AddressInfo).port;
    const cookie = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: '/login', method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve((res.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '');
        },
      );
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
