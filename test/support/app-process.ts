/**
 * One app instance as its own process, for tests that need several instances on one store and
 * for `npm run soak`. It builds the real admin and web apps from the configuration in its
 * environment (APP_PROFILE defaults to test; pass SVC_STORE, SVC_REDIS_URL, SVC_REDIS_KEY_PREFIX,
 * SVC_RSA_PRIVATE_KEY, ... as for `npm start`), listens on loopback ports chosen by the OS and
 * reports them over IPC:
 *
 *   -> parent: {ready: true, pid, admin: <port>, web: <port>}
 *   <- parent: {cmd: 'memory'}  -> parent: {memory: process.memoryUsage()}
 *
 * It stops by itself when the parent disconnects (or dies), on SIGTERM, or on {cmd: 'stop'}.
 * An unhandled rejection or uncaught exception is reported to the parent ({fatal: message}) and
 * ends the process with status 70, so a test notices it.
 */
import 'reflect-metadata';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/adapters/koa/http-server';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { buildAdminApp } from '../../src/main/admin';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';

export interface InstanceReady {
  readonly ready: true;
  readonly pid: number;
  readonly admin: number;
  readonly web: number;
}

function fatal(what: string, e: unknown): void {
  const message = `${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
  process.stderr.write(`${message}\n`);
  if (process.connected) process.send?.({ fatal: message });
  process.exitCode = 70;
  setTimeout(() => process.exit(70), 50).unref();
}
process.on('unhandledRejection', (e) => fatal('unhandledRejection', e));
process.on('uncaughtException', (e) => fatal('uncaughtException', e));

async function main(): Promise<void> {
  const config = loadConfig({ env: { APP_PROFILE: 'test', ...process.env } });
  const infra = createInfrastructure(config, { log: silentLogger });
  const servers: http.Server[] = [];
  const ports: Record<'admin' | 'web', number> = { admin: 0, web: 0 };
  for (const name of ['admin', 'web'] as const) {
    const built = name === 'admin' ? buildAdminApp(config, infra) : buildWebApp(config, infra);
    const server = createHttpServer(built.app.callback(), {
      format: name === 'admin' ? 'envelope' : 'problem',
      problemBaseUri: config.problemBaseUri,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    ports[name] = (server.address() as AddressInfo).port;
    servers.push(server);
  }

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await infra.close().catch(() => undefined);
    process.exit(process.exitCode ?? 0);
  };
  process.on('disconnect', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('message', (m: { cmd?: string }) => {
    if (m.cmd === 'stop') void stop();
    else if (m.cmd === 'memory') process.send?.({ memory: process.memoryUsage() });
  });
  const ready: InstanceReady = { ready: true, pid: process.pid, admin: ports.admin, web: ports.web };
  process.send?.(ready);
}

main().catch((e: unknown) => fatal('start', e));
