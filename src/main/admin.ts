/** Composition root of the admin app (port 8080, login type "admin", `{code, message, data}` envelope). */
import type Koa from 'koa';
import type { Container } from 'inversify';
import { CreateCaptcha } from '../application/auth/captcha';
import { GetLoginConfig } from '../application/auth/get-login-config';
import { Login } from '../application/auth/login';
import { CheckRateLimit } from '../application/auth/rate-limit';
import { EndSession, ListSessions, Logout, RefreshToken } from '../application/auth/session-use-cases';
import { TOKENS } from '../application/tokens';
import { CreateUser, ListUsers } from '../application/users/users';
import { generateEphemeralRsaKey, NodeRsaDecryptor, parseRsaPrivateKey } from '../adapters/crypto/rsa';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { rateLimiter } from '../adapters/koa/rate-limit';
import { EnvelopeResponder } from '../adapters/koa/responders';
import type { RouteDef } from '../adapters/koa/routes';
import { adminAuthRoutes } from '../adapters/koa/routes/auth-routes';
import { adminMeRoutes } from '../adapters/koa/routes/me-routes';
import { systemRoutes } from '../adapters/koa/routes/system-routes';
import type { AppState } from '../adapters/koa/state';
import { adminExampleRoutes } from '../adapters/koa/routes/example-routes';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { idempotentTokenRoutes } from '../adapters/koa/routes/idempotency-routes';
import { tryItRoutes } from '../adapters/koa/routes/try-it-routes';
import type { AppConfig } from './config';
import { createBaseContainer, idempotencyGuardDeps, inputFilter, LOGIN_TYPES } from './container';
import { userAdminRoutesOf } from './directories';
import type { Infrastructure } from './infrastructure';
import { operations } from './operations';

export interface BuiltApp {
  readonly app: Koa<AppState>;
  readonly container: Container;
  /** Every mounted route (the app's own and the operational ones). */
  readonly routes: readonly RouteDef[];
}

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
  const container = createBaseContainer(config, infra, 'admin');
  container.bind(TOKENS.UserDirectory).toConstantValue(infra.directories.admins);
  container.bind(TOKENS.RsaDecryptor).toConstantValue(new NodeRsaDecryptor(rsaKeyFor(config, infra), config.rsaPadding, infra.cryptoPool));

  const managers = container.get(TOKENS.SessionManagers);
  const rateLimit = rateLimiter(container.get(CheckRateLimit), LOGIN_TYPES.admin);
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  const routes: RouteDef[] = [
    ...adminAuthRoutes({
      managers,
      rateLimit,
      config: container.get(GetLoginConfig),
      captcha: container.get(CreateCaptcha),
      captchaPerMinute: config.captcha.ratePerMinute,
      login: container.get(Login),
      refresh: container.get(RefreshToken),
      logout: container.get(Logout),
    }),
    ...adminMeRoutes(managers),
    ...systemRoutes(
      {
        managers,
        createUser: container.get(CreateUser),
        listUsers: container.get(ListUsers),
        listSessions: container.get(ListSessions),
        endSession: container.get(EndSession),
      },
      // Duplicate-submission protection (spec: PARAM mode) after the permission check, so refused callers take no lock.
      { createUser: [idempotent({ mode: 'PARAM', ttlSeconds: config.idempotency.paramTtlSeconds })] },
    ),
    ...idempotentTokenRoutes(container.get(TOKENS.IssueIdempotencyToken)),
    ...userAdminRoutesOf(container, managers),
  ];
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
  if (config.tryItEnabled) routes.push(...tryItRoutes());
  const ops = operations({ app: 'admin', config, infra, container, routes });
  const app = createHttpApp({
    realm: LOGIN_TYPES.admin,
    responder: new EnvelopeResponder(),
    routes: ops.routes,
    outer: ops.outer,
    trustedProxies: parseCidrList(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    log: infra.log,
    pre: [inputFilter(config)],
  });
  return { app, container, routes: ops.routes };
}
