/** Composition root of the admin app (port 8080, login type "admin", `{code, message, data}` envelope). */
import { CreateCaptcha } from '../application/auth/create-captcha';
import { GetLoginConfig } from '../application/auth/get-login-config';
import { Login } from '../application/auth/login';
import { CheckRateLimit } from '../application/auth/check-rate-limit';
import { EndSession } from '../application/auth/end-session';
import { ListSessions } from '../application/auth/list-sessions';
import { Logout } from '../application/auth/logout';
import { RefreshToken } from '../application/auth/refresh-token';
import { CreateExampleRecord } from '../application/examples/create-example-record';
import { ListExampleRecords } from '../application/examples/list-example-records';
import { IssueIdempotencyToken } from '../application/idempotency/issue-idempotency-token';
import { Authenticate } from '../application/auth/authenticate';
import { VerifySignature } from '../application/signing/verify-signature';
import { CreateUser } from '../application/users/create-user';
import { ListUsers } from '../application/users/list-users';
import { generateEphemeralRsaKey, NodeRsaDecryptor, parseRsaPrivateKey } from '../adapters/crypto/rsa';
import { rateLimiter } from '../adapters/koa/rate-limit';
import { EnvelopeResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { adminAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { adminMeRoutes } from '../adapters/koa/routes/me-routes';
import { systemRoutes } from '../adapters/koa/routes/system-routes';
import { adminExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import { tryItRoutes } from '../adapters/koa/routes/try-it-routes';
import type { AppConfig } from './config';
import { authGuardsOf, createContainer, idempotencyGuardDeps } from './container';
import { userAdminRoutesOf } from './directories';
import type { Infrastructure } from './infrastructure';
import { assembleApp, type BuiltApp } from './operations';

const LOGIN_TYPE = 'admin';

/** The configured RSA key, or (dev/test only: prod refuses to start without one) an ephemeral one. */
function rsaKeyFor(config: AppConfig, infra: Infrastructure) {
  if (config.rsaPrivateKey !== '') return parseRsaPrivateKey(config.rsaPrivateKey);
  if (config.profile === 'prod') throw new Error('svc.rsa-private-key is required in prod');
  if (config.profile === 'dev') {
    infra.log.warn({}, 'svc.rsa-private-key is not set: generated an ephemeral 2048-bit RSA key (dev only; clients must re-fetch /auth/getConfig after a restart)');
  }
  return generateEphemeralRsaKey();
}

export function buildAdminApp(config: AppConfig, infra: Infrastructure): BuiltApp {
  const rsa = new NodeRsaDecryptor(rsaKeyFor(config, infra), config.rsaPadding, infra.cryptoPool);
  const container = createContainer(config, infra, LOGIN_TYPE, { directory: infra.directories.admins, rsa });
  const guards = authGuardsOf(container);
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  const rateLimit = rateLimiter(container.get(CheckRateLimit), LOGIN_TYPE);
  const routes: RouteDef[] = [
    ...adminAuthRoutes({
      guards,
      rateLimit,
      config: container.get(GetLoginConfig),
      captcha: container.get(CreateCaptcha),
      captchaPerMinute: config.captcha.ratePerMinute,
      login: container.get(Login),
      refresh: container.get(RefreshToken),
      logout: container.get(Logout),
    }),
    ...adminMeRoutes(guards),
    ...systemRoutes(
      { guards, createUser: container.get(CreateUser), listUsers: container.get(ListUsers), listSessions: container.get(ListSessions), endSession: container.get(EndSession) },
      // Duplicate-submission protection (spec: PARAM mode) after the permission check, so refused callers take no lock.
      { createUser: [idempotent({ mode: 'PARAM', ttlSeconds: config.idempotency.paramTtlSeconds })] },
    ),
    ...idempotentTokenRoutes({
      issue: container.get(IssueIdempotencyToken),
      authenticate: container.get(Authenticate),
      loginType: LOGIN_TYPE,
      rateLimit,
      perMinute: config.idempotency.tokenRatePerMinute,
    }),
    ...userAdminRoutesOf(container, guards),
  ];
  if (config.examplesEnabled) {
    routes.push(...adminExampleRoutes({ verifySignature: container.get(VerifySignature), guards, idempotent, createRecord: container.get(CreateExampleRecord), listRecords: container.get(ListExampleRecords) }));
  }
  if (config.tryItEnabled) routes.push(...tryItRoutes());
  return assembleApp({ app: LOGIN_TYPE, config, infra, container, routes, responder: new EnvelopeResponder() });
}
