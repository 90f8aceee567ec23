/**
 * Process entry: `npm start` runs both apps in one process (sharing one store);
 * `npm run start:admin` / `start:web` run one each. Graceful shutdown on SIGTERM/SIGINT.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../adapters/koa/http-server';
import { accessLoggerOf, bufferedDestination, createPinoLogger } from '../adapters/logging/pino-logger';
import { loadCommonPasswords } from '../adapters/passwords/common-password-list';
import { ConfigError, loadConfig, servedAppChecks, type AppConfig } from './config';
import { buildAdminApp } from './admin';
import { buildWebApp } from './web';
import { createInfrastructure } from './infrastructure';

type Which = 'admin' | 'web';

function parseArgs(argv: readonly string[]): Which[] {
  const arg = argv[0];
  if (arg === undefined || arg === 'all') return ['admin', 'web'];
  if (arg === 'admin' || arg === 'web') return [arg];
  process.stderr.write(`usage: start.ts [admin|web|all]\n`);
  process.exit(2);
}

/** The configuration, checked for the apps this process serves; every problem printed at once, then exit 1. */
function loadOrExit(which: readonly Which[]): AppConfig {
  try {
    const config = loadConfig();
    const problems = servedAppChecks(config, which);
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Refusing to start. ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

async function main(): Promise<void> {
  const which = parseArgs(process.argv.slice(2));
  const config = loadOrExit(which);
  // Asynchronous, buffered stdout: a log line never blocks the request that wrote it, and lines
  // leave in batches (at least every second; flushed on shutdown).
  const destination = bufferedDestination(1);
  // session.is-log turns on the session core's debug lines, so the level must let them through.
  const level = process.env.LOG_LEVEL ?? (config.session.isLog ? 'debug' : config.profile === 'test' ? 'warn' : 'info');
  const log = createPinoLogger({ level, destination });
  const infra = createInfrastructure(config, { log, accessLog: accessLoggerOf(log) });
  // The common-password list is read now (a few hundred ms, once per process), not in the first registration's request;
  // a missing list fails the start.
  const listStart = Date.now();
  const entries = loadCommonPasswords().size;
  log.info({ entries, ms: Date.now() - listStart }, 'common-password list loaded');

  const servers: http.Server[] = [];
  for (const name of which) {
    const built = name === 'admin' ? buildAdminApp(config, infra) : buildWebApp(config, infra);
    const server = createHttpServer(built.app.callback(), {
      format: name === 'admin' ? 'envelope' : 'problem',
      problemBaseUri: config.problemBaseUri,
      headersTimeoutMs: config.server.headersTimeoutMs,
      requestTimeoutMs: config.server.requestTimeoutMs,
      keepAliveTimeoutMs: config.server.keepAliveTimeoutMs,
    });
    const port = name === 'admin' ? config.adminPort : config.webPort;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => resolve());
    });
    servers.push(server);
    log.info(
      { app: name, port: (server.address() as AddressInfo).port, profile: config.profile, store: config.store },
      `${name} app listening`,
    );
  }
  if (config.session.isPrint) process.stdout.write(`authguard ${which.join(' + ')} — profile ${config.profile}, store ${config.store}\n`);

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const force = setTimeout(() => servers.forEach((s) => s.closeAllConnections()), config.shutdownGraceMs);
    force.unref();
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeIdleConnections();
          }),
      ),
    );
    await infra.close().catch(() => undefined);
    log.info({}, 'stopped');
    log.raw.flush(() => process.exit(0));
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  process.stderr.write(`Failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
