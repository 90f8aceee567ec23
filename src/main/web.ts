/** Composition root of the consumer web app (port 8081, login type "web", RFC 9457 problem details). */
import { CreateCaptcha } from '../application/auth/create-captcha';
import { Login } from '../application/auth/login';
import { CheckRateLimit } from '../application/auth/check-rate-limit';
import { EndSession } from '../application/auth/end-session';
import { ListSessions } from '../application/auth/list-sessions';
import { Logout } from '../application/auth/logout';
import { LogoutAll } from '../application/auth/logout-all';
import { RefreshToken } from '../application/auth/refresh-token';
import { CreateExampleRecord } from '../application/examples/create-example-record';
import { ListExampleRecords } from '../application/examples/list-example-records';
import { IssueIdempotencyToken } from '../application/idempotency/issue-idempotency-token';
import { Authenticate } from '../application/auth/authenticate';
import { VerifySignature } from '../application/signing/verify-signature';
import { CreateUser } from '../application/users/create-user';
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { rateLimiter } from '../adapters/koa/rate-limit';
import { ProblemResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { webAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { webProfileRoutes } from '../adapters/koa/routes/me-routes';
import { problemRoutes } from '../adapters/koa/routes/problem-routes';
import { webExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import type { AppConfig } from './config';
import { authGuardsOf, createContainer, idempotencyGuardDeps } from './container';
import type { Infrastructure } from './infrastructure';
import { assembleApp, type BuiltApp } from './operations';

const LOGIN_TYPE = 'web';

export function buildWebApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  // Members have a directory of their own (svc.directory); passwords arrive as plain JSON over TLS (no RSA layer).
  const container = createContainer(config, infra, LOGIN_TYPE, { directory: infra.directories.members, rsa: new NoRsaDecryptor() });
  const guards = authGuardsOf(container);
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  const rateLimit = rateLimiter(container.get(CheckRateLimit), LOGIN_TYPE);
  const routes: RouteDef[] = [
    ...webAuthRoutes({
      guards,
      rateLimit,
      login: container.get(Login),
      refresh: container.get(RefreshToken),
      logout: container.get(Logout),
      register: container.get(CreateUser),
      registerPerHour: config.registerPerHour,
      captcha: container.get(CreateCaptcha),
      captchaPerMinute: config.captcha.ratePerMinute,
    }),
    ...webProfileRoutes({ guards, listSessions: container.get(ListSessions), endSession: container.get(EndSession), logoutAll: container.get(LogoutAll) }),
    ...problemRoutes(config.problemBaseUri),
    ...idempotentTokenRoutes({
      issue: container.get(IssueIdempotencyToken),
      authenticate: container.get(Authenticate),
      loginType: LOGIN_TYPE,
      rateLimit,
      perMinute: config.idempotency.tokenRatePerMinute,
    }),
  ];
  if (config.examplesEnabled) {
    routes.push(...webExampleRoutes({ verifySignature: container.get(VerifySignature), guards, idempotent, createRecord: container.get(CreateExampleRecord), listRecords: container.get(ListExampleRecords) }));
  }
  return assembleApp({ app: LOGIN_TYPE, config, infra, container, routes, responder: new ProblemResponder(config.problemBaseUri) });
}
