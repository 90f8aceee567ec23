/** Composition root of the consumer web app (port 8081, login type "web", RFC 9457 problem details). */
import { TOKENS } from '../application/tokens';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { ProblemResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { webProfileRoutes } from '../adapters/koa/routes/me-routes';
import type { BuiltApp } from './admin';
import { signedEchoRoutes } from '../adapters/koa/routes/example-routes';
import type { AppConfig } from './config';
import { createBaseContainer, LOGIN_TYPES } from './container';
import type { Infrastructure } from './infrastructure';

export function buildWebApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const container = createBaseContainer(config, infra);
  const managers = container.get(TOKENS.SessionManagers);
  const routes: RouteDef[] = [...webProfileRoutes(managers)];
  if (config.examplesEnabled) {
    routes.push(...signedEchoRoutes({ verifySignature: container.get(TOKENS.VerifySignature) }));
  }
  const app = createHttpApp({
    realm: LOGIN_TYPES.web,
    responder: new ProblemResponder(config.problemBaseUri),
    routes,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
  });
  return { app, container };
}
