/**
 * The admin (or web) app with its full production middleware stack, on the in-memory store or
 * Redis. Logs a bench user in and reports {port, token} to the parent over IPC.
 * Usage: tsx bench/servers/authguard.ts <memory|redis> [admin|web] [routes]
 * `routes`: the embedded directory gets a 200-menu tree (menuTreeFile) and the bench user holds `*:*:*`, so
 * GET /auth/routes answers the whole tree.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import { accessLoggerOf, bufferedDestination, createPinoLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';

const store = (process.argv[2] ?? 'memory') as 'memory' | 'redis';
const which = process.argv[3] === 'web' ? 'web' : 'admin';
const routes = process.argv[4] === 'routes';

/** Directories of 10 pages of 4 buttons each, 4 of them: 4 + 40 + 160 = 204 menus, ids ascending. */
export const BENCH_MENUS = { directories: 4, pages: 10, buttons: 4 } as const;

/** A users file beside a generated menus.yml of about 200 menus; returns the users file. */
function menuTreeFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agbench-menus-'));
  // The bench user's session is made below, not by a login: the directory needs no account.
  writeFileSync(path.join(dir, 'users.yml'), 'roles:\n  admin: { id: 1, name: Administrator }\nusers: []\n');
  const lines = ['menus:'];
  let id = 1000;
  for (let d = 1; d <= BENCH_MENUS.directories; d++) {
    lines.push(`  - { id: ${d}, type: M, title: Area ${d}, path: /area${d}, icon: ri:folder-line, order: ${d}, children: [`);
    for (let p = 1; p <= BENCH_MENUS.pages; p++) {
      const area = `area${d}:page${p}`;
      const buttons = Array.from({ length: BENCH_MENUS.buttons }, (_, b) => {
        id++;
        return `{ id: ${id}, type: F, title: Action ${b + 1}, order: ${b + 1}, permission: '${area}:action${b + 1}' }`;
      });
      id++;
      lines.push(
        `      { id: ${id}, type: C, title: Page ${d}.${p}, path: /area${d}/page${p}, name: Area${d}Page${p}, ` +
          `component: area${d}/page${p}/index, icon: ri:file-line, order: ${p}, permission: '${area}:list', ` +
          `children: [${buttons.join(', ')}] },`,
      );
    }
    lines.push('    ] }');
  }
  writeFileSync(path.join(dir, 'menus.yml'), lines.join('\n') + '\n');
  return path.join(dir, 'users.yml');
}

/** The signing app of the signed-POST scenario (bench only). */
export const BENCH_APP = { key: 'bench-app', secret: 'bench-only-secret-0123456789abcdef' };

async function main(): Promise<void> {
  const config = loadConfig({
    env: { ...process.env, APP_PROFILE: 'test' },
    overrides: {
      'svc.store': store,
      'svc.captcha.enabled': false,
      'svc.examples.enabled': true,
      'svc.security.sign.apps': { [BENCH_APP.key]: BENCH_APP.secret },
      // The load generator spreads logins over many client addresses (X-Forwarded-For from loopback).
      'svc.trusted-proxies': '127.0.0.1,::1',
      ...(routes ? { 'svc.users-file': menuTreeFile() } : {}),
      ...(store === 'redis'
        ? { 'svc.redis.url': process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'svc.redis.key-prefix': `agbench:${process.pid}:` }
        : {}),
    },
  });
  // Production logging (as start.ts): info level, buffered asynchronous writes, to a sink (the bench reads no logs).
  const log = createPinoLogger({ level: 'info', destination: bufferedDestination('/dev/null') });
  const infra = createInfrastructure(config, { log, accessLog: accessLoggerOf(log) });
  const built = which === 'admin' ? buildAdminApp(config, infra) : buildWebApp(config, infra);
  const managers = built.container.get(SessionManagers);
  const { token } = await managers
    .get(which)
    .login(
      routes
        ? { userId: 'bench-1', username: 'bench', roles: ['admin'], permissions: ['*:*:*'] }
        : { userId: 'bench-1', username: 'bench', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] },
      { ip: '127.0.0.1', userAgent: 'autocannon' },
    );
  const server = built.app.listen(0, '127.0.0.1', () => {
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port, token });
  });
  process.on('disconnect', () => process.exit(0));
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
