/** Composition root of the admin app (port 8080, login type "admin", `{code, message, data}` envelope). */
import type Koa from 'koa';
import type { Container } from 'inversify';
import { TOKENS } from '../application/tokens';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { EnvelopeResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { adminMeRoutes } from '../adapters/koa/routes/me-routes';
import type { AppState } from '../adapters/koa/state';
import type { AppConfig } from './config';
import { createBaseContainer, LOGIN_TYPES } from './container';
import { userAdminRoutesOf } from './directories';
import type { Infrastructure } from './infrastructure';

export interface BuiltApp {
  readonly app: Koa<AppState>;
  readonly container: Container;
  /** The route table the app was built from (documentation, fuzzing). */
  readonly routes: readonly RouteDef[];
}

export function buildAdminApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const container = createBaseContainer(config, infra);
  const managers = container.get(TOKENS.SessionManagers);
  const routes: RouteDef[] = [...adminMeRoutes(managers), ...userAdminRoutesOf(container, managers)];
  const app = createHttpApp({
    realm: LOGIN_TYPES.admin,
    responder: new EnvelopeResponder(),
    routes,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
  });
  return { app, container, routes };
}
