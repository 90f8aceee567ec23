/**
 * The admin app with its full production middleware stack on Redis, with the local session cache
 * on (session.local-cache.enabled=true): bench/cache-scenario.ts's server. Logs a bench user in,
 * waits until the cache's tracking link is up, and reports {port, token} to the parent over IPC.
 * Usage: tsx bench/servers/authguard-cache.ts
 */
import type { AddressInfo } from 'node:net';
import 'reflect-metadata';
import { accessLoggerOf, bufferedDestination, createPinoLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';

async function main(): Promise<void> {
  const config = loadConfig({
    env: { ...process.env, APP_PROFILE: 'test' },
    overrides: {
      'svc.store': 'redis',
      'svc.redis.url': process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      'svc.redis.key-prefix': `agbench:${process.pid}:`,
      'session.local-cache.enabled': true,
      'svc.captcha.enabled': false,
      'svc.trusted-proxies': '127.0.0.1,::1',
    },
  });
  // Production logging (as start.ts): info level, buffered asynchronous writes, to a sink (the bench reads no logs).
  const log = createPinoLogger({ level: 'info', destination: bufferedDestination('/dev/null') });
  const infra = createInfrastructure(config, { log, accessLog: accessLoggerOf(log) });
  const built = buildAdminApp(config, infra);
  const { token } = await built.container.get(SessionManagers).get('admin').login(
    { userId: 'bench-1', username: 'bench', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] },
    { ip: '127.0.0.1', userAgent: 'autocannon' },
  );
  const server = built.app.listen(0, '127.0.0.1', async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Ready when the cache is in use (its tracking link proven), not merely listening.
    for (let i = 0; i < 200; i++) {
      if (/^authguard_session_cache_tracking\{app="admin"\} 1$/m.test(await (await fetch(`${base}/actuator/prometheus`)).text())) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port, token });
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
