/**
 * The container both apps (and the CLI) are built from: ports bound through TOKENS; use cases and
 * services are not listed anywhere: asking for an `@injectable()` class binds it (to itself, once
 * per container: `autoBindInjectable` with the singleton default scope). A class whose port is not
 * bound in a configuration (ChangeUserRoles and DisableUser need TOKENS.UserAdministration) fails
 * when asked for, naming the missing port. Only src/main touches it.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Container } from 'inversify';
import type { AuthSettings } from '../application/auth/auth-settings';
import { CheckRecentAuth } from '../application/auth/check-recent-auth';
import type { AccountSettings } from '../application/users/account-settings';
import { Authenticate } from '../application/auth/authenticate';
import { CheckPermission } from '../application/auth/check-permission';
import { CheckRole } from '../application/auth/check-role';
import { storeHealthIndicator } from '../application/health/check-health';
import { QueuedAuditTrail } from '../application/audit/queued-audit-trail';
import { AbandonIdempotentRequest } from '../application/idempotency/abandon-idempotent-request';
import { AcquireIdempotencyLock } from '../application/idempotency/acquire-idempotency-lock';
import { BeginIdempotentRequest } from '../application/idempotency/begin-idempotent-request';
import { CompleteIdempotentRequest } from '../application/idempotency/complete-idempotent-request';
import { ConsumeIdempotencyToken } from '../application/idempotency/consume-idempotency-token';
import { ReleaseIdempotencyLock } from '../application/idempotency/release-idempotency-lock';
import { RestoreIdempotencyToken } from '../application/idempotency/restore-idempotency-token';
import type { IdempotencySettings } from '../application/idempotency/idempotency-settings';
import { parseEncryptionKey } from '../application/mfa/secret-box';
import type { TotpSettings } from '../application/mfa/totp-settings';
import type { AccountStore } from '../application/ports/account-store';
import type { Logger } from '../application/ports/logger';
import type { RsaDecryptor } from '../application/ports/rsa-decryptor';
import type { UserDirectory } from '../application/ports/user-directory';
import { TOKENS } from '../application/tokens';
import { SvgCaptchaGenerator } from '../adapters/captcha/svg-captcha-generator';
import { authGuards, type AuthGuards } from '../adapters/koa/guards';
import { PackagedCommonPasswords } from '../adapters/passwords/common-password-list';
import { OtpauthTotp } from '../adapters/otp/otpauth-totp';
import { QrcodeSvg } from '../adapters/otp/qrcode-svg';
import { BowserUserAgentParser } from '../adapters/audit/bowser-user-agent-parser';
import type { IdempotencyGuardDeps } from '../adapters/koa/idempotency-guards';
import type { AppMiddleware } from '../adapters/koa/state';
import { EXACT_BYTES_HEADERS, xssFilter } from '../adapters/koa/xss-filter';
import { PromMetrics } from '../adapters/metrics/prom-metrics';
import { SimpleWebAuthnVerifier } from '../adapters/webauthn/simple-webauthn-verifier';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import { auditTrailOf } from './audit';
import { decorateForApp } from './store-backends';

/** The accounts an app logs in against, their changes, and how its passwords arrive. */
export interface AppAccounts {
  readonly directory: UserDirectory;
  /** Password, state and e-mail changes of the same accounts (TOKENS.AccountStore). */
  readonly accounts: AccountStore;
  readonly rsa: RsaDecryptor;
}

export function accountSettingsOf(config: AppConfig): AccountSettings {
  const r = config.raw;
  return {
    passwordHistory: r['svc.password.history'],
    requireEmail: r['svc.web.require-email'],
    requireVerifiedEmail: r['svc.web.require-verified-email'],
    verifyCodeTtlSeconds: r['svc.web.verify-code-ttl-seconds'],
    resetTokenTtlSeconds: r['svc.web.reset-token-ttl-seconds'],
    resetLink: r['svc.web.reset-link'],
    mailTimeoutMs: r['svc.mail.timeout-ms'],
  };
}

/** `log` hears the dev warning about a generated device-cookie key. */
export function authSettingsOf(config: AppConfig, log?: Logger): AuthSettings {
  return {
    captcha: { enabled: config.captcha.enabled, type: config.captcha.type, ttlSeconds: config.captcha.ttlSeconds },
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    refreshTokenAbsoluteTtlSeconds: config.refreshTokenAbsoluteTtlSeconds,
    bcryptCost: config.bcryptCost,
    maxLoginFailures: config.login.maxFailures,
    lockSeconds: config.login.lockSeconds,
    captchaMaxFailures: config.raw['svc.login.captcha-max-failures'],
    hardLockSeconds: config.raw['svc.login.hard-lock-seconds'],
    timeZone: config.timeZone,
    stepUpMaxAgeSeconds: config.raw['svc.step-up.max-age-seconds'],
    deviceCookie: {
      secrets: deviceCookieSecretsOf(config, log),
      maxAgeSeconds: config.deviceCookie.maxAgeSeconds,
      secure: config.profile === 'prod',
      path: config.deviceCookie.path,
    },
  };
}

/** The generated keys of each configuration that has none, by config key (both apps of a process share them). */
const ephemeralKeys = new WeakMap<AppConfig, Map<string, string>>();

/**
 * The random key standing in for `key` while it is not configured (dev and test only), one per configuration (both
 * apps of a process share it): 32 bytes, base64url. Dev hears `lapse` once.
 */
function ephemeralKey(config: AppConfig, key: string, lapse: string, log?: Logger): string {
  const generated = ephemeralKeys.get(config) ?? new Map<string, string>();
  ephemeralKeys.set(config, generated);
  let current = generated.get(key) ?? '';
  if (current === '') {
    current = randomBytes(32).toString('base64url');
    generated.set(key, current);
    if (config.profile === 'dev') log?.warn({}, `${key} is not set: generated an ephemeral key (dev only; ${lapse})`);
  }
  return current;
}

/**
 * An HMAC key pair, the current one first. Without the configured key (dev and test only: prod
 * refuses to start without it) a random key lives as long as the configuration (ephemeralKey).
 */
function secretsOf(config: AppConfig, key: string, secret: string, previousSecret: string, lapse: string, log?: Logger): string[] {
  let current = secret;
  if (current === '') {
    if (config.profile === 'prod') throw new Error(`${key} is required in prod`);
    current = ephemeralKey(config, key, lapse, log);
  }
  return previousSecret === '' ? [current] : [current, previousSecret];
}

/**
 * The TOTP factors' settings. The keys: svc.mfa.encryption-key then the previous one; without it, none in prod (enrolment
 * answers 503 mfa-unavailable; the start warned) and an ephemeral key in dev and test (`log` hears it in dev).
 */
export function totpSettingsOf(config: AppConfig, log?: Logger): TotpSettings {
  const text = (key: 'svc.mfa.encryption-key' | 'svc.mfa.previous-encryption-key') => config.raw[key].trim();
  let current = text('svc.mfa.encryption-key');
  if (current === '' && config.profile !== 'prod') {
    const lapse = 'TOTP factors enrolled now cannot be verified after a restart, nor by instances that do not share the key';
    current = ephemeralKey(config, 'svc.mfa.encryption-key', lapse, log);
  }
  const keys = [current, text('svc.mfa.previous-encryption-key')]
    .filter((k) => k !== '')
    .map((k) => {
      const key = parseEncryptionKey(k);
      if (key === null) throw new Error('svc.mfa.encryption-key: not 32 bytes'); // the configuration refused it already
      return key;
    });
  return { encryptionKeys: keys, issuer: config.raw['svc.webauthn.rp-name'] };
}

/** The device-cookie keys, the current one first (see secretsOf). */
function deviceCookieSecretsOf(config: AppConfig, log?: Logger): string[] {
  const { secret, previousSecret } = config.deviceCookie;
  return secretsOf(config, 'svc.login.device-cookie-secret', secret, previousSecret, 'device cookies lapse at a restart', log);
}

/** The idempotency use cases' settings; `log` hears the dev warning about a generated token key. */
export function idempotencySettingsOf(config: AppConfig, log?: Logger): IdempotencySettings {
  const { tokenSecret, tokenPreviousSecret, tokenRatePerMinute: _perMinute, ...settings } = config.idempotency;
  const lapse =
    "idempotency tokens lapse at a restart, and instances that do not share svc.idempotency.token-secret refuse each other's tokens";
  return { ...settings, tokenSecrets: secretsOf(config, 'svc.idempotency.token-secret', tokenSecret, tokenPreviousSecret, lapse, log) };
}

/**
 * The relying party of one app: the shared id and name, and only that app's front-end origins, so an answer made on
 * the other app's front end is refused. The CLI's containers run no ceremony: no origin.
 */
function webAuthnVerifierOf(config: AppConfig, app: string): SimpleWebAuthnVerifier {
  const r = config.raw;
  const origins = app === 'admin' ? r['svc.webauthn.admin-origins'] : app === 'web' ? r['svc.webauthn.web-origins'] : [];
  return new SimpleWebAuthnVerifier({ id: r['svc.webauthn.rp-id'], name: r['svc.webauthn.rp-name'], origins });
}

/** `app` labels the container's metrics registry (one per app; the stores are shared, their latency is counted per app). */
export function createContainer(config: AppConfig, infra: Infrastructure, app: string, accounts: AppAccounts): Container {
  const c = new Container({ defaultScope: 'Singleton', autoBindInjectable: true });
  const metrics = new PromMetrics({ app });
  c.bind(PromMetrics).toConstantValue(metrics);
  c.bind(TOKENS.Metrics).toConstantValue(metrics);
  infra.reportSessionCache?.(metrics);
  c.bind(TOKENS.Clock).toConstantValue(infra.clock);
  c.bind(TOKENS.Logger).toConstantValue(infra.log);
  const stores = decorateForApp(infra, infra.storeBackend, metrics);
  c.bind(TOKENS.SessionStore).toConstantValue(stores.sessions);
  c.bind(TOKENS.KeyValueStore).toConstantValue(stores.kv);
  c.bind(TOKENS.ListStore).toConstantValue(stores.lists);
  c.bind(TOKENS.RateLimitStore).toConstantValue(stores.rateLimits);
  c.bind(TOKENS.CaptchaStore).toConstantValue(stores.captchas);
  c.bind(TOKENS.AuditStore).toConstantValue(stores.audit);
  const trail = auditTrailOf(config, infra, metrics, stores, app === 'admin' || app === 'web');
  c.bind(TOKENS.AuditTrail).toConstantValue(trail);
  c.bind(QueuedAuditTrail).toConstantValue(trail);
  c.bind(TOKENS.StoreHealth).toConstantValue(infra.health);
  // Health components: bind one more HealthIndicator to add one (e.g. the user directory).
  c.bind(TOKENS.HealthIndicator).toConstantValue(storeHealthIndicator(infra.health, config.store));
  c.bind(TOKENS.PasswordHasher).toConstantValue(infra.hasher);
  c.bind(TOKENS.CommonPasswords).toConstantValue(new PackagedCommonPasswords());
  c.bind(TOKENS.Mailer).toConstantValue(infra.mailer);
  c.bind(TOKENS.CaptchaGenerator).toConstantValue(new SvgCaptchaGenerator({ min: config.captcha.mathMin, max: config.captcha.mathMax }));
  c.bind(TOKENS.UserDirectory).toConstantValue(accounts.directory);
  c.bind(TOKENS.AccountStore).toConstantValue(accounts.accounts);
  c.bind(TOKENS.RsaDecryptor).toConstantValue(accounts.rsa);
  c.bind(TOKENS.AdminDirectory).toConstantValue(infra.directories.admins);
  c.bind(TOKENS.MemberDirectory).toConstantValue(infra.directories.members);
  if (infra.directories.administration !== null) c.bind(TOKENS.UserAdministration).toConstantValue(infra.directories.administration);
  c.bind(TOKENS.TotpStore).toConstantValue(infra.directories.totp);
  c.bind(TOKENS.TotpAlgorithm).toConstantValue(new OtpauthTotp());
  c.bind(TOKENS.QrCodes).toConstantValue(new QrcodeSvg());
  c.bind(TOKENS.UserAgentParser).toConstantValue(new BowserUserAgentParser());
  c.bind(TOKENS.PasskeyStore).toConstantValue(infra.directories.passkeys);
  c.bind(TOKENS.WebAuthnVerifier).toConstantValue(webAuthnVerifierOf(config, app));
  c.bind(TOKENS.MenuCatalogue).toConstantValue(infra.directories.menus);
  c.bind(TOKENS.RoleAdministration).toConstantValue(infra.directories.roles);
  c.bind(TOKENS.MenuSettings).toConstantValue({ cacheSeconds: config.raw['svc.menus.cache-seconds'] });
  // Only the apps that serve logins use device cookies: the CLI's containers stay quiet about a generated key.
  c.bind(TOKENS.AccountSettings).toConstantValue(accountSettingsOf(config));
  c.bind(TOKENS.MfaSettings).toConstantValue({
    requiredRoles: config.raw['svc.mfa.required-roles'],
    challengeTtlSeconds: config.raw['svc.mfa.challenge-ttl-seconds'],
  });
  c.bind(TOKENS.AuthSettings).toConstantValue(authSettingsOf(config, app === 'admin' || app === 'web' ? infra.log : undefined));
  c.bind(TOKENS.TotpSettings).toConstantValue(totpSettingsOf(config, app === 'admin' || app === 'web' ? infra.log : undefined));
  c.bind(TOKENS.SessionSettings).toConstantValue(config.session);
  c.bind(TOKENS.SignSettings).toConstantValue(config.sign);
  c.bind(TOKENS.IdempotencySettings).toConstantValue(
    idempotencySettingsOf(config, app === 'admin' || app === 'web' ? infra.log : undefined),
  );
  return c;
}

/** The login and permission guards of an app, on its container's use cases. */
export function authGuardsOf(c: Container): AuthGuards {
  return authGuards({
    authenticate: c.get(Authenticate),
    checkPermission: c.get(CheckPermission),
    checkRole: c.get(CheckRole),
    checkRecentAuth: c.get(CheckRecentAuth),
  });
}

/** The duplicate-submission guards' use cases. */
export function idempotencyGuardDeps(c: Container, config: AppConfig, infra: Infrastructure): IdempotencyGuardDeps {
  return {
    acquireLock: c.get(AcquireIdempotencyLock),
    releaseLock: c.get(ReleaseIdempotencyLock),
    consumeToken: c.get(ConsumeIdempotencyToken),
    restoreToken: c.get(RestoreIdempotencyToken),
    begin: c.get(BeginIdempotentRequest),
    complete: c.get(CompleteIdempotentRequest),
    abandon: c.get(AbandonIdempotentRequest),
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
