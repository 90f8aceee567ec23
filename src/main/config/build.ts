/** The typed AppConfig from the validated key values: paths resolved, profile defaults applied. */
import path from 'node:path';
import type { TokenStyle } from '../../domain/session';
import type { SignScheme } from '../../domain/signing';
import type { StoreBackendName } from '../store-backends';
import type { AppConfig, KeyOrigin, RedisSettings } from './app-config';
import type { ConfigKey, Profile } from './keys';

/** The validated value of a key. */
type Read = <T>(k: ConfigKey) => T;

function sessionOf(s: Read): AppConfig['session'] {
  return {
    tokenName: s<string>('session.token-name'),
    tokenPrefix: s<string>('session.token-prefix').trim(),
    timeout: s<number>('session.timeout'),
    activeTimeout: s<number>('session.active-timeout'),
    isConcurrent: s<boolean>('session.is-concurrent'),
    isShare: s<boolean>('session.is-share'),
    isReadCookie: s<boolean>('session.is-read-cookie'),
    tokenStyle: s<TokenStyle>('session.token-style'),
    isLog: s<boolean>('session.is-log'),
    isPrint: s<boolean>('session.is-print'),
    shareSecret: s<string>('session.share-secret'),
  };
}

function sessionCacheOf(s: Read): AppConfig['sessionCache'] {
  return {
    enabled: s<boolean>('session.local-cache.enabled'),
    maxEntries: s<number>('session.local-cache.max-entries'),
    ttlMs: s<number>('session.local-cache.ttl-ms'),
  };
}

function captchaOf(s: Read): AppConfig['captcha'] {
  return {
    enabled: s<boolean>('svc.captcha.enabled'),
    type: s<'math' | 'text'>('svc.captcha.captcha-type'),
    ttlSeconds: s<number>('svc.captcha.ttl-seconds'),
    ratePerMinute: s<number>('svc.captcha.rate-limit-per-minute'),
    mathMin: s<number>('svc.captcha.math-min'),
    mathMax: s<number>('svc.captcha.math-max'),
  };
}

function signOf(s: Read): AppConfig['sign'] {
  return {
    enabled: s<boolean>('svc.security.sign.enabled'),
    timeoutSeconds: s<number>('svc.security.sign.timeoutSeconds'),
    nonceTtlSeconds: s<number>('svc.security.sign.nonceTtlSeconds'),
    apps: s<Record<string, string>>('svc.security.sign.apps'),
    schemes: s<Record<string, SignScheme[]>>('svc.security.sign.schemes'),
    publicUrls: s<Record<string, string>>('svc.security.sign.public-urls'),
  };
}

function idempotencyOf(s: Read): AppConfig['idempotency'] {
  return {
    paramTtlSeconds: s<number>('svc.idempotency.param-ttl-seconds'),
    tokenTtlSeconds: s<number>('svc.idempotency.token-ttl-seconds'),
    tokenRatePerMinute: s<number>('svc.idempotency.token-rate-limit-per-minute'),
    tokenSecret: s<string>('svc.idempotency.token-secret').trim(),
    tokenPreviousSecret: s<string>('svc.idempotency.token-previous-secret').trim(),
    headerName: s<string>('svc.idempotency.header-name'),
    headerTtlSeconds: s<number>('svc.idempotency.header-ttl-seconds'),
    headerLockSeconds: s<number>('svc.idempotency.header-lock-seconds'),
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
  const url = s<string>('svc.redis.url').trim();
  return {
    mode: s<RedisSettings['mode']>('svc.redis.mode'),
    url,
    password: s<string>('svc.redis.password') || urlPassword(url),
    sentinels: s<RedisSettings['sentinels']>('svc.redis.sentinels'),
    nodes: s<RedisSettings['nodes']>('svc.redis.nodes'),
    masterName: s<string>('svc.redis.master-name').trim(),
    sentinelPassword: s<string>('svc.redis.sentinel-password'),
    waitReplicas: s<number>('svc.redis.wait-replicas'),
    keyPrefix: s<string>('svc.redis.key-prefix'),
    commandTimeoutMs: s<number>('svc.redis.command-timeout-ms'),
  };
}

function serverOf(s: Read): AppConfig['server'] {
  return {
    headersTimeoutMs: s<number>('svc.server.headers-timeout-ms'),
    requestTimeoutMs: s<number>('svc.server.request-timeout-ms'),
    keepAliveTimeoutMs: s<number>('svc.server.keep-alive-timeout-ms'),
  };
}

function datasourceOf(s: Read): AppConfig['datasource'] {
  return {
    url: s<string>('svc.datasource.url').trim(),
    username: s<string>('svc.datasource.username').trim(),
    password: s<string>('svc.datasource.password'),
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

export function build(profile: Profile, r: Record<ConfigKey, unknown>, configDir: string, notes: LoadNotes): AppConfig {
  const s: Read = <T>(k: ConfigKey) => r[k] as T;
  return {
    profile,
    session: sessionOf(s),
    sessionCache: sessionCacheOf(s),
    captcha: captchaOf(s),
    rsaPrivateKey: s<string>('svc.rsa-private-key').trim(),
    rsaPadding: s<'oaep-sha256' | 'pkcs1'>('svc.rsa.padding'),
    usersFile: configFile(configDir, s<string>('svc.users-file')),
    membersFile: configFile(configDir, s<string>('svc.members-file')),
    registerPerHour: s<number>('svc.register.rate-limit-per-hour'),
    refreshTokenTtlSeconds: s<number>('svc.refresh-token.ttl-seconds'),
    refreshTokenAbsoluteTtlSeconds: s<number>('svc.refresh-token.absolute-ttl-seconds'),
    bcryptCost: s<number>('svc.password.bcrypt-cost'),
    login: { maxFailures: s<number>('svc.login.max-failures'), lockSeconds: s<number>('svc.login.lock-seconds') },
    deviceCookie: {
      secret: s<string>('svc.login.device-cookie-secret').trim(),
      previousSecret: s<string>('svc.login.device-cookie-previous-secret').trim(),
      maxAgeSeconds: s<number>('svc.login.device-cookie-max-age-seconds'),
      path: s<string>('svc.login.device-cookie-path'),
    },
    cryptoWorkerThreads: s<number>('svc.crypto.worker-threads'),
    sign: signOf(s),
    idempotency: idempotencyOf(s),
    xss: { enabled: s<boolean>('svc.xss.enabled'), excludePaths: s<string[]>('svc.xss.exclude-paths') },
    examplesEnabled: s<boolean>('svc.examples.enabled'),
    store: s<StoreBackendName>('svc.store'),
    redis: redisOf(s),
    adminPort: s<number>('svc.admin.port'),
    webPort: s<number>('svc.web.port'),
    trustedProxies: s<string[]>('svc.trusted-proxies'),
    trustedProxiesAllowWide: s<boolean>('svc.trusted-proxies-allow-wide'),
    timeZone: s<string>('svc.time-zone').trim() || Intl.DateTimeFormat().resolvedOptions().timeZone,
    problemBaseUri: s<string>('svc.problem-base-uri').replace(/\/?$/, '/'),
    bodyLimitBytes: s<number>('svc.body-limit-bytes'),
    maxQueryParams: s<number>('svc.http.max-query-params'),
    shutdownGraceMs: s<number>('svc.shutdown-grace-ms'),
    actuator: {
      exposure: actuatorExposureOf(profile, s<string[] | undefined>('svc.actuator.exposure')),
      showDetails: s<boolean | undefined>('svc.actuator.show-details') ?? profile !== 'prod',
    },
    openapiEnabled: s<boolean | undefined>('svc.openapi.enabled') ?? profile !== 'prod',
    openapiContact: { name: s<string>('svc.openapi.contact-name').trim(), url: s<string>('svc.openapi.contact-url'), email: s<string>('svc.openapi.contact-email') },
    tryItEnabled: s<boolean | undefined>('svc.try-it.enabled') ?? profile === 'dev',
    corsAllowedOrigins: s<string[]>('svc.cors.allowed-origins'),
    server: serverOf(s),
    directory: s<'file' | 'sql'>('svc.directory'),
    datasource: datasourceOf(s),
    raw: r,
    origins: notes.origins,
    loadWarnings: notes.loadWarnings,
  };
}
