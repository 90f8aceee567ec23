/** Composition root of the consumer web app (port 8081, login type "web", RFC 9457 problem details). */
import { Login } from '../application/auth/login';
import { CheckRateLimit } from '../application/auth/rate-limit';
import { EndSession, ListSessions, Logout, LogoutAll, RefreshToken } from '../application/auth/session-use-cases';
import { TOKENS } from '../application/tokens';
import { CreateUser } from '../application/users/users';
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { rateLimiter } from '../adapters/koa/rate-limit';
import { ProblemResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { webAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { webProfileRoutes } from '../adapters/koa/routes/me-routes';
import { problemRoutes } from '../adapters/koa/routes/problem-routes';
import type { BuiltApp } from './admin';
import { webExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import type { AppConfig } from './config';
import { createBaseContainer, idempotencyGuardDeps, inputFilter, LOGIN_TYPES } from './container';
import type { Infrastructure } from './infrastructure';
import { operations } from './operations';

export function buildWebApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const container = createBaseContainer(config, infra, 'web');
  // Members: a directory of their own (svc.directory: YAML file or the SQL `member` table), separate from admin users.
  container.bind(TOKENS.UserDirectory).toConstantValue(infra.directories.members);
  // No RSA layer on the web app: passwords arrive as plain JSON over TLS.
  container.bind(TOKENS.RsaDecryptor).toConstantValue(new NoRsaDecryptor());

  const managers = container.get(TOKENS.SessionManagers);
  const rateLimit = rateLimiter(container.get(CheckRateLimit), LOGIN_TYPES.web);
  const routes: RouteDef[] = [
    ...webAuthRoutes({
      managers,
      rateLimit,
      login: container.get(Login),
      refresh: container.get(RefreshToken),
      logout: container.get(Logout),
      register: container.get(CreateUser),
      registerPerHour: config.registerPerHour,
    }),
    ...webProfileRoutes({
      managers,
      listSessions: container.get(ListSessions),
      endSession: container.get(EndSession),
      logoutAll: container.get(LogoutAll),
    }),
    ...problemRoutes(config.problemBaseUri),
  ];
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  routes.push(...idempotentTokenRoutes(container.get(TOKENS.IssueIdempotencyToken)));
  if (config.examplesEnabled) {
    routes.push(
      ...webExampleRoutes({
        verifySignature: container.get(TOKENS.VerifySignature),
        managers,
        idempotent,
        createRecord: container.get(TOKENS.CreateExampleRecord),
        listRecords: container.get(TOKENS.ListExampleRecords),
      }),
    );
  }
  const ops = operations({ app: 'web', config, infra, container, routes });
  const app = createHttpApp({
    realm: LOGIN_TYPES.web,
    responder: new ProblemResponder(config.problemBaseUri),
    routes: ops.routes,
    outer: ops.outer,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
    pre: [inputFilter(config)],
  });
  return { app, container, routes: ops.routes };
}
