/** The shared HTTP edge alone (createHttpApp, admin envelope, no routes), with one middleware of the test's after it. */
import type Koa from 'koa';
import { createHttpApp } from '../../src/adapters/koa/http-app';
import { EnvelopeResponder } from '../../src/adapters/koa/responders';
import type { AppMiddleware, AppState } from '../../src/adapters/koa/state';
import { silentLogger } from '../../src/adapters/logging/pino-logger';

export function edgeApp(handler: AppMiddleware): Koa<AppState> {
  return createHttpApp({
    realm: 'admin',
    responder: new EnvelopeResponder(),
    routes: [],
    trustedProxies: { contains: () => false },
    bodyLimitBytes: 1024,
    log: silentLogger,
    pre: [handler],
  });
}
