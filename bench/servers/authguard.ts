/**
 * The admin (or web) app with its full production middleware stack, on the in-memory store or
 * Redis. Logs a bench user in and reports {port, token} to the parent over IPC.
 * Usage: tsx bench/servers/authguard.ts <memory|redis> [admin|web]
 */
import type { AddressInfo } from 'node:net';
import 'reflect-metadata';
import { accessLoggerOf, bufferedDestination, createPinoLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';

const store = (process.argv[2] ?? 'memory') as 'memory' | 'redis';
const which = process.argv[3] === 'web' ? 'web' : 'admin';

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
      { userId: 'bench-1', username: 'bench', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] },
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
