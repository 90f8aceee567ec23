/**
 * The admin app with its full production middleware stack on a Redis Cluster
 * (svc.redis.mode=cluster): bench/cluster-scenario.ts's server. The cluster is named in the
 * environment as for `npm start`: SVC_REDIS_NODES (seed nodes) and SVC_REDIS_PASSWORD. Logs a
 * bench user in once the service is ready (the cluster client has its slot map) and reports
 * {port, token} to the parent over IPC.
 * Usage: SVC_REDIS_NODES=h:p,... SVC_REDIS_PASSWORD=... node bench/.build/bench/servers/authguard-cluster.js
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
    env: { ...process.env, APP_PROFILE: 'test', SVC_STORE: 'redis', SVC_REDIS_MODE: 'cluster' },
    overrides: {
      // Only SVC_REDIS_NODES / SVC_REDIS_PASSWORD name the cluster (the bench passes REDIS_URL to every server).
      'svc.redis.url': '',
      'svc.redis.key-prefix': `agbench:${process.pid}:`,
      'svc.captcha.enabled': false,
      'svc.trusted-proxies': '127.0.0.1,::1',
    },
  });
  // Production logging (as start.ts): info level, buffered asynchronous writes, to a sink (the bench reads no logs).
  const log = createPinoLogger({ level: 'info', destination: bufferedDestination('/dev/null') });
  const infra = createInfrastructure(config, { log, accessLog: accessLoggerOf(log) });
  const built = buildAdminApp(config, infra);
  // The first calls wait for the cluster client (at most the command timeout): wait for readiness instead.
  for (let i = 0; i < 100 && !(await infra.health.ping()).up; i++) await new Promise((r) => setTimeout(r, 50));
  const { token } = await built.container
    .get(SessionManagers)
    .get('admin')
    .login(
      { userId: 'bench-1', username: 'bench', roles: ['viewer'], permissions: ['system:user:list', 'monitor:online:list'] },
      { ip: '127.0.0.1', userAgent: 'autocannon' },
    );
  const server = built.app.listen(0, '127.0.0.1', () => {
    process.send?.({ ready: true, port: (server.address() as AddressInfo).port, token });
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
