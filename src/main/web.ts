/** Composition root of the consumer web app (port 8081, login type "web", RFC 9457 problem details). */
import { TOKENS } from '../application/tokens';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { ProblemResponder } from '../adapters/koa/responders';
import { webProfileRoutes } from '../adapters/koa/routes/me-routes';
import type { BuiltApp } from './admin';
import type { AppConfig } from './config';
import { createBaseContainer, LOGIN_TYPES } from './container';
import type { Infrastructure } from './infrastructure';
import { operations } from './operations';

export function buildWebApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const container = createBaseContainer(config, infra, 'web');
  const managers = container.get(TOKENS.SessionManagers);
  const ops = operations({ app: 'web', config, infra, container, routes: [...webProfileRoutes(managers)] });
  const app = createHttpApp({
    realm: LOGIN_TYPES.web,
    responder: new ProblemResponder(config.problemBaseUri),
    routes: ops.routes,
    outer: ops.outer,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
  });
  return { app, container, routes: ops.routes };
}
