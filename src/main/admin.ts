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
import { adminExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import type { AppConfig } from './config';
import { createBaseContainer, idempotencyGuardDeps, inputFilter, LOGIN_TYPES } from './container';
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
  const routes: RouteDef[] = [...adminMeRoutes(managers)];
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  routes.push(...idempotentTokenRoutes(container.get(TOKENS.IssueIdempotencyToken)));
  if (config.examplesEnabled) {
    routes.push(
      ...adminExampleRoutes({
        verifySignature: container.get(TOKENS.VerifySignature),
        managers,
        idempotent,
        createRecord: container.get(TOKENS.CreateExampleRecord),
        listRecords: container.get(TOKENS.ListExampleRecords),
      }),
    );
  }
  const app = createHttpApp({
    realm: LOGIN_TYPES.admin,
    responder: new EnvelopeResponder(),
    routes,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
    pre: [inputFilter(config)],
  });
  return { app, container, routes };
}
