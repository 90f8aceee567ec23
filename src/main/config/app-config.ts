/** The typed configuration the composition roots read, and the error that lists every problem. */
import type { IdempotencySettings } from '../../application/idempotency/idempotency-settings';
import type { SessionSettings } from '../../application/session/session-settings';
import type { SignSettings } from '../../application/signing/sign-settings';
import type { RedisConnectionSettings, SessionCacheSettings } from '../store-ports';
import type { ConfigKey, Profile, SettingValue, SettingValues } from './keys';

export type { SessionCacheSettings } from '../store-ports';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** How the service reaches Redis: one server, the master a set of Sentinels names, or a Redis Cluster. */
export interface RedisSettings extends RedisConnectionSettings {
  readonly mode: SettingValue<'svc.redis.mode'>;
}

/** `svc.idempotency.*`: the use cases' settings (but the resolved keys), the token keys as configured, the token route's rate limit. */
export interface IdempotencyConfig extends Omit<IdempotencySettings, 'tokenSecrets'> {
  /** HMAC key of the one-time tokens ('' = none: refused in prod, generated per process in dev/test). */
  readonly tokenSecret: string;
  /** The key before the last rotation: its tokens still verify ('' = none). */
  readonly tokenPreviousSecret: string;
  /** `GET /idempotent/token` requests per minute per client IP, and per session when the request presents one. */
  readonly tokenRatePerMinute: number;
}

/**
 * Where a key's value came from: its built-in default, a YAML file (`packaged`: one of the files this
 * package ships in config/, i.e. a profile's own value, rather than one in the operator's
 * SVC_CONFIG_DIR), the environment, or a test override.
 */
export type KeyOrigin =
  | { readonly source: 'default' | 'environment' | 'override' }
  | { readonly source: 'file'; readonly file: string; readonly packaged: boolean };

export interface AppConfig {
  readonly profile: Profile;
  readonly session: SessionSettings;
  readonly sessionCache: SessionCacheSettings;
  readonly captcha: {
    readonly enabled: boolean;
    readonly type: SettingValue<'svc.captcha.captcha-type'>;
    readonly ttlSeconds: number;
    readonly ratePerMinute: number;
    /** Operand range of math captchas. */
    readonly mathMin: number;
    readonly mathMax: number;
  };
  readonly rsaPrivateKey: string;
  readonly rsaPadding: SettingValue<'svc.rsa.padding'>;
  /** Absolute path of the embedded user directory file; '' = no seeded users. */
  readonly usersFile: string;
  /** Absolute path of the embedded member directory file (web app); '' = no seeded members. */
  readonly membersFile: string;
  /** `POST /auth/register` requests per hour per client IP (web app). */
  readonly registerPerHour: number;
  readonly refreshTokenTtlSeconds: number;
  /** A refresh-token family (one login and its rotations) ends this long after the login. */
  readonly refreshTokenAbsoluteTtlSeconds: number;
  readonly bcryptCost: number;
  readonly login: { readonly maxFailures: number; readonly lockSeconds: number };
  /** Device cookies of the login lock: the key, the previous key (still verifies), the cookie's lifetime. */
  readonly deviceCookie: {
    readonly secret: string;
    readonly previousSecret: string;
    readonly maxAgeSeconds: number;
    readonly path: string;
  };
  /** Size of the crypto worker pool (BCrypt, PKCS#1 RSA); 0 = one per CPU. */
  readonly cryptoWorkerThreads: number;
  readonly sign: SignSettings;
  readonly idempotency: IdempotencyConfig;
  readonly xss: { readonly enabled: boolean; readonly excludePaths: readonly string[] };
  /** Mount the example handlers (/open/echo, /examples/echo, /orders, /payments). */
  readonly examplesEnabled: boolean;
  readonly store: SettingValue<'svc.store'>;
  readonly redis: RedisSettings;
  readonly adminPort: number;
  readonly webPort: number;
  readonly trustedProxies: readonly string[];
  /** Prod accepts trusted-proxy ranges wider than /8 (IPv4) or /32 (IPv6). */
  readonly trustedProxiesAllowWide: boolean;
  /** IANA zone for formatted dates; the server's zone when not configured. */
  readonly timeZone: string;
  readonly problemBaseUri: string;
  readonly bodyLimitBytes: number;
  /** More `&`-separated query parameters than this answer 400 too-many-query-params. */
  readonly maxQueryParams: number;
  readonly shutdownGraceMs: number;
  readonly actuator: {
    /** Endpoints mounted under /actuator (dev/test: all; prod: health and info). */
    readonly exposure: ReadonlyArray<'health' | 'info' | 'prometheus'>;
    /** Health answers carry components and details (dev/test) or the status only (prod). */
    readonly showDetails: boolean;
  };
  /** /v3/api-docs and /swagger-ui are mounted (default: everywhere but prod). */
  readonly openapiEnabled: boolean;
  /** `info.contact` of the API description: who integrators reach ('' = left out). */
  readonly openapiContact: { readonly name: string; readonly url: string; readonly email: string };
  /** GET / on the admin app serves the try-it login page (default: dev only). */
  readonly tryItEnabled: boolean;
  /** Origins allowed to call the apps from a browser (CORS); empty = none. */
  readonly corsAllowedOrigins: readonly string[];
  /** Slow-client protection of the HTTP servers. */
  readonly server: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number; readonly keepAliveTimeoutMs: number };
  /** Where admin users and members live: the embedded files (default) or MySQL / MariaDB. */
  readonly directory: SettingValue<'svc.directory'>;
  readonly datasource: { readonly url: string; readonly username: string; readonly password: string };
  /**
   * Every key's validated value, typed by its declaration (secrets included: never log this). A
   * setting that needs no derivation (trimming, a resolved path, a profile default) is read here,
   * `config.raw['svc.some.key']`, rather than given a field above.
   */
  readonly raw: SettingValues;
  /** Where each key's value came from. */
  readonly origins: Readonly<Record<ConfigKey, KeyOrigin>>;
  /** What loading set aside rather than refused (a profile's entries for apps the operator did not configure); warned at start. */
  readonly loadWarnings: readonly string[];
}

export interface LoadOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly configDir?: string;
  /** Overrides applied after the environment (tests). Keys are config keys. */
  readonly overrides?: Partial<Record<ConfigKey, unknown>>;
}
