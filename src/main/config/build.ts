/** The typed AppConfig from the validated key values: paths resolved, profile defaults applied. */
import path from 'node:path';
import type { AppConfig, KeyOrigin, RedisSettings } from './app-config';
import type { ConfigKey, Profile, SettingValue, SettingValues } from './keys';

/** The validated value of a key, typed by its declaration (the output of the key's schema). */
type Read = <K extends ConfigKey>(k: K) => SettingValue<K>;

function sessionOf(s: Read): AppConfig['session'] {
  return {
    tokenName: s('session.token-name'),
    tokenPrefix: s('session.token-prefix').trim(),
    timeout: s('session.timeout'),
    activeTimeout: s('session.active-timeout'),
    isConcurrent: s('session.is-concurrent'),
    isShare: s('session.is-share'),
    isReadCookie: s('session.is-read-cookie'),
    tokenStyle: s('session.token-style'),
    isLog: s('session.is-log'),
    isPrint: s('session.is-print'),
    replacedRange: s('session.replaced-range'),
    replacedLoginExitMode: s('session.replaced-login-exit-mode'),
    maxLoginCount: s('session.max-login-count'),
    overflowLogoutMode: s('session.overflow-logout-mode'),
    noRememberTimeout: s('session.no-remember-timeout'),
    tombstoneRetention: s('session.tombstone-retention'),
    shareSecret: s('session.share-secret'),
  };
}

function sessionCacheOf(s: Read): AppConfig['sessionCache'] {
  return {
    enabled: s('session.local-cache.enabled'),
    maxEntries: s('session.local-cache.max-entries'),
    ttlMs: s('session.local-cache.ttl-ms'),
  };
}

function captchaOf(s: Read): AppConfig['captcha'] {
  return {
    enabled: s('svc.captcha.enabled'),
    type: s('svc.captcha.captcha-type'),
    ttlSeconds: s('svc.captcha.ttl-seconds'),
    ratePerMinute: s('svc.captcha.rate-limit-per-minute'),
    mathMin: s('svc.captcha.math-min'),
    mathMax: s('svc.captcha.math-max'),
  };
}

function signOf(s: Read): AppConfig['sign'] {
  return {
    enabled: s('svc.security.sign.enabled'),
    timeoutSeconds: s('svc.security.sign.timeoutSeconds'),
    nonceTtlSeconds: s('svc.security.sign.nonceTtlSeconds'),
    apps: s('svc.security.sign.apps'),
    schemes: s('svc.security.sign.schemes'),
    publicUrls: s('svc.security.sign.public-urls'),
  };
}

function idempotencyOf(s: Read): AppConfig['idempotency'] {
  return {
    paramTtlSeconds: s('svc.idempotency.param-ttl-seconds'),
    tokenTtlSeconds: s('svc.idempotency.token-ttl-seconds'),
    tokenRatePerMinute: s('svc.idempotency.token-rate-limit-per-minute'),
    tokenSecret: s('svc.idempotency.token-secret').trim(),
    tokenPreviousSecret: s('svc.idempotency.token-previous-secret').trim(),
    headerName: s('svc.idempotency.header-name'),
    headerTtlSeconds: s('svc.idempotency.header-ttl-seconds'),
    headerLockSeconds: s('svc.idempotency.header-lock-seconds'),
  };
}

/** The password of a redis:// URL ('' when it has none or does not parse: the cross-checks report that). */
export function urlPassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

function redisOf(s: Read): RedisSettings {
  const url = s('svc.redis.url').trim();
  return {
    mode: s('svc.redis.mode'),
    url,
    password: s('svc.redis.password') || urlPassword(url),
    sentinels: s('svc.redis.sentinels'),
    nodes: s('svc.redis.nodes'),
    masterName: s('svc.redis.master-name').trim(),
    sentinelPassword: s('svc.redis.sentinel-password'),
    waitReplicas: s('svc.redis.wait-replicas'),
    keyPrefix: s('svc.redis.key-prefix'),
    commandTimeoutMs: s('svc.redis.command-timeout-ms'),
    indexSweepMs: s('svc.redis.index-sweep-ms'),
  };
}

function serverOf(s: Read): AppConfig['server'] {
  return {
    headersTimeoutMs: s('svc.server.headers-timeout-ms'),
    requestTimeoutMs: s('svc.server.request-timeout-ms'),
    keepAliveTimeoutMs: s('svc.server.keep-alive-timeout-ms'),
  };
}

function datasourceOf(s: Read): AppConfig['datasource'] {
  return {
    url: s('svc.datasource.url').trim(),
    username: s('svc.datasource.username').trim(),
    password: s('svc.datasource.password'),
  };
}

function actuatorExposureOf(profile: Profile, configured: readonly string[] | undefined): Array<'health' | 'info' | 'prometheus'> {
  const all = ['health', 'info', 'prometheus'] as const;
  if (configured === undefined) return profile === 'prod' ? ['health', 'info'] : [...all];
  return configured.includes('*') ? [...all] : all.filter((e) => configured.includes(e));
}

/** A file key relative to the configuration directory; '' stays '' (no file). */
function configFile(configDir: string, configured: string): string {
  const file = configured.trim();
  return file === '' ? '' : path.resolve(configDir, file);
}

/** What loading knows besides the values: each key's origin, and what it set aside with a warning. */
export interface LoadNotes {
  readonly origins: Readonly<Record<ConfigKey, KeyOrigin>>;
  readonly loadWarnings: readonly string[];
}

export function build(profile: Profile, r: SettingValues, configDir: string, notes: LoadNotes): AppConfig {
  const s: Read = (k) => r[k];
  return {
    profile,
    session: sessionOf(s),
    sessionCache: sessionCacheOf(s),
    captcha: captchaOf(s),
    rsaPrivateKey: s('svc.rsa-private-key').trim(),
    rsaPadding: s('svc.rsa.padding'),
    usersFile: configFile(configDir, s('svc.users-file')),
    membersFile: configFile(configDir, s('svc.members-file')),
    registerPerHour: s('svc.register.rate-limit-per-hour'),
    refreshTokenTtlSeconds: s('svc.refresh-token.ttl-seconds'),
    refreshTokenAbsoluteTtlSeconds: s('svc.refresh-token.absolute-ttl-seconds'),
    bcryptCost: s('svc.password.bcrypt-cost'),
    login: { maxFailures: s('svc.login.max-failures'), lockSeconds: s('svc.login.lock-seconds') },
    deviceCookie: {
      secret: s('svc.login.device-cookie-secret').trim(),
      previousSecret: s('svc.login.device-cookie-previous-secret').trim(),
      maxAgeSeconds: s('svc.login.device-cookie-max-age-seconds'),
      path: s('svc.login.device-cookie-path'),
    },
    cryptoWorkerThreads: s('svc.crypto.worker-threads'),
    sign: signOf(s),
    idempotency: idempotencyOf(s),
    xss: { enabled: s('svc.xss.enabled'), excludePaths: s('svc.xss.exclude-paths') },
    examplesEnabled: s('svc.examples.enabled'),
    store: s('svc.store'),
    redis: redisOf(s),
    adminPort: s('svc.admin.port'),
    webPort: s('svc.web.port'),
    trustedProxies: s('svc.trusted-proxies'),
    trustedProxiesAllowWide: s('svc.trusted-proxies-allow-wide'),
    timeZone: s('svc.time-zone').trim() || Intl.DateTimeFormat().resolvedOptions().timeZone,
    problemBaseUri: s('svc.problem-base-uri').replace(/\/?$/, '/'),
    bodyLimitBytes: s('svc.body-limit-bytes'),
    maxQueryParams: s('svc.http.max-query-params'),
    shutdownGraceMs: s('svc.shutdown-grace-ms'),
    actuator: {
      exposure: actuatorExposureOf(profile, s('svc.actuator.exposure')),
      showDetails: s('svc.actuator.show-details') ?? profile !== 'prod',
    },
    openapiEnabled: s('svc.openapi.enabled') ?? profile !== 'prod',
    openapiContact: {
      name: s('svc.openapi.contact-name').trim(),
      url: s('svc.openapi.contact-url'),
      email: s('svc.openapi.contact-email'),
    },
    tryItEnabled: s('svc.try-it.enabled') ?? profile === 'dev',
    corsAllowedOrigins: s('svc.cors.allowed-origins'),
    server: serverOf(s),
    directory: s('svc.directory'),
    datasource: datasourceOf(s),
    raw: r,
    origins: notes.origins,
    loadWarnings: notes.loadWarnings,
  };
}
