/** The bindings both composition roots share. Only src/main touches the container. */
import 'reflect-metadata';
import { Container } from 'inversify';
import { CreateCaptcha, VerifyCaptcha } from '../application/auth/captcha';
import { GetLoginConfig } from '../application/auth/get-login-config';
import { IssueTokens, Login } from '../application/auth/login';
import { CheckRateLimit } from '../application/auth/rate-limit';
import { EndSession, ListSessions, Logout, LogoutAll, RefreshToken } from '../application/auth/session-use-cases';
import type { AuthSettings } from '../application/auth/auth-settings';
import { SessionManager, SessionManagers } from '../application/session/session-manager';
import { VerifySignature } from '../application/signing/verify-signature';
import { AcquireIdempotencyLock, ReleaseIdempotencyLock } from '../application/idempotency/param-lock';
import { ConsumeIdempotencyToken, IssueIdempotencyToken, RestoreIdempotencyToken } from '../application/idempotency/one-time-token';
import { AbandonIdempotentRequest, BeginIdempotentRequest, CompleteIdempotentRequest } from '../application/idempotency/idempotency-key';
import { CreateExampleRecord, ListExampleRecords } from '../application/examples/example-records';
import { TOKENS } from '../application/tokens';
import type { IdempotencyGuardDeps } from '../adapters/koa/idempotency-guards';
import type { AppMiddleware } from '../adapters/koa/state';
import { EXACT_BYTES_HEADERS, xssFilter } from '../adapters/koa/xss-filter';
import { CreateUser, ListUsers } from '../application/users/users';
import { SvgCaptchaGenerator } from '../adapters/captcha/svg-captcha-generator';
import { storeHealthIndicator } from '../application/health/check-health';
import { PromMetrics } from '../adapters/metrics/prom-metrics';
import { timed } from '../adapters/timed-store';
import type { AppConfig } from './config';
import { bindDirectories } from './directories';
import type { Infrastructure } from './infrastructure';
import { MAIN_TOKENS } from './tokens';

export const LOGIN_TYPES = { admin: 'admin', web: 'web' } as const;

/** The duplicate-submission guards' use cases, from the container (composition roots only). */
export function idempotencyGuardDeps(c: Container, config: AppConfig, infra: Infrastructure): IdempotencyGuardDeps {
  return {
    acquireLock: c.get(TOKENS.AcquireIdempotencyLock),
    releaseLock: c.get(TOKENS.ReleaseIdempotencyLock),
    consumeToken: c.get(TOKENS.ConsumeIdempotencyToken),
    restoreToken: c.get(TOKENS.RestoreIdempotencyToken),
    begin: c.get(TOKENS.BeginIdempotentRequest),
    complete: c.get(TOKENS.CompleteIdempotentRequest),
    abandon: c.get(TOKENS.AbandonIdempotentRequest),
    headerName: config.idempotency.headerName,
    log: infra.log,
  };
}

/** The input filter of both apps; the credential, signing and idempotency headers keep their exact bytes. */
export function inputFilter(config: AppConfig): AppMiddleware {
  return xssFilter({
    enabled: config.xss.enabled,
    excludePaths: config.xss.excludePaths,
    exemptHeaders: [...EXACT_BYTES_HEADERS, config.session.tokenName, config.idempotency.headerName],
  });
}
export function authSettingsOf(config: AppConfig): AuthSettings {
  return {
    captcha: { enabled: config.captcha.enabled, type: config.captcha.type, ttlSeconds: config.captcha.ttlSeconds },
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    bcryptCost: config.bcryptCost,
    maxLoginFailures: config.login.maxFailures,
    lockSeconds: config.login.lockSeconds,
    timeZone: config.timeZone,
  };
}

/** Use cases resolved from the container (each app binds its own UserDirectory / RsaDecryptor). */
const USE_CASES = [CheckRateLimit, CreateCaptcha, VerifyCaptcha, GetLoginConfig, IssueTokens, Login, RefreshToken, Logout, LogoutAll, ListSessions, EndSession, CreateUser, ListUsers] as const;

/** `app` names the app whose container this is (its metrics registry is labelled with it). */
export function createBaseContainer(config: AppConfig, infra: Infrastructure, app = 'app'): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(MAIN_TOKENS.Config).toConstantValue(config);
  c.bind(TOKENS.Clock).toConstantValue(infra.clock);
  c.bind(TOKENS.Logger).toConstantValue(infra.log);
  // One metrics registry per app; the stores are shared, their call latency is counted per app.
  const metrics = new PromMetrics({ app });
  c.bind(MAIN_TOKENS.PromMetrics).toConstantValue(metrics);
  c.bind(TOKENS.Metrics).toConstantValue(metrics);
  const sessions = timed(infra.sessions, 'session', metrics);
  c.bind(TOKENS.SessionStore).toConstantValue(sessions);
  c.bind(TOKENS.KeyValueStore).toConstantValue(timed(infra.kv, 'key-value', metrics));
  c.bind(TOKENS.ListStore).toConstantValue(timed(infra.lists, 'list', metrics));
  c.bind(TOKENS.RateLimitStore).toConstantValue(timed(infra.rateLimits, 'rate-limit', metrics));
  c.bind(TOKENS.StoreHealth).toConstantValue(infra.health);
  // Health components: bind one more HealthIndicator to add one (e.g. the user directory).
  c.bind(TOKENS.HealthIndicator).toConstantValue(storeHealthIndicator(infra.health, config.store));
  c.bind(TOKENS.PasswordHasher).toConstantValue(infra.hasher);
  c.bind(TOKENS.CaptchaGenerator).toConstantValue(new SvgCaptchaGenerator());
  c.bind(TOKENS.AuthSettings).toConstantValue(authSettingsOf(config));
  for (const uc of USE_CASES) c.bind(uc as never).toSelf();
  // Both login types are registered at start-up: a guard naming either never fails lazily.
  c.bind(TOKENS.SessionManagers).toConstantValue(
    new SessionManagers(
      Object.values(LOGIN_TYPES).map((type) => new SessionManager(type, config.session, sessions, infra.clock, infra.log)),
    ),
  );
  c.bind(TOKENS.SignSettings).toConstantValue(config.sign);
  c.bind(TOKENS.VerifySignature).to(VerifySignature);
  c.bind(TOKENS.IdempotencySettings).toConstantValue(config.idempotency);
  c.bind(TOKENS.AcquireIdempotencyLock).to(AcquireIdempotencyLock);
  c.bind(TOKENS.ReleaseIdempotencyLock).to(ReleaseIdempotencyLock);
  c.bind(TOKENS.IssueIdempotencyToken).to(IssueIdempotencyToken);
  c.bind(TOKENS.ConsumeIdempotencyToken).to(ConsumeIdempotencyToken);
  c.bind(TOKENS.RestoreIdempotencyToken).to(RestoreIdempotencyToken);
  c.bind(TOKENS.BeginIdempotentRequest).to(BeginIdempotentRequest);
  c.bind(TOKENS.CompleteIdempotentRequest).to(CompleteIdempotentRequest);
  c.bind(TOKENS.AbandonIdempotentRequest).to(AbandonIdempotentRequest);
  c.bind(TOKENS.CreateExampleRecord).to(CreateExampleRecord);
  c.bind(TOKENS.ListExampleRecords).to(ListExampleRecords);
  bindDirectories(c, infra.directories);
  return c;
}
