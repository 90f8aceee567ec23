/**
 * One typed, validated configuration.
 *
 * Sources, later wins: built-in defaults (never secrets) -> config/application.yml ->
 * config/application-<profile>.yml -> environment variables. The profile comes from APP_PROFILE
 * (dev | test | prod, default dev). An environment variable is the key upper-cased with '.' and
 * '-' turned into '_' (svc.rsa-private-key -> SVC_RSA_PRIVATE_KEY). Lists in the environment
 * are comma-separated; maps (svc.security.sign.apps) are JSON objects.
 *
 * Every problem is collected and reported at once, each naming its key.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { SessionPolicy, TokenStyle } from '../domain/session';
import { parseCidrList } from '../adapters/koa/client-ip';
import { parseRsaPrivateKey } from '../adapters/crypto/rsa';
import { parseDatasourceUrl } from '../adapters/sql/mysql-pool';
import { packageRoot } from '../adapters/package-root';

export type Profile = 'dev' | 'test' | 'prod';
export const PROFILES: readonly Profile[] = ['dev', 'test', 'prod'];

// ---- value parsers that accept YAML natives or environment strings --------------------------

const bool = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return v;
}, z.boolean({ message: 'expected true or false' }));

const int = (min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ message: 'expected an integer' }).int('expected an integer').min(min).max(max),
  );

/** -1 (off / never) or a positive number of seconds. */
const secondsOrOff = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ message: 'expected an integer' })
    .int('expected an integer')
    .refine((n) => n === -1 || n > 0, 'expected -1 or a positive number of seconds'),
);

const str = z.string();
const nonEmpty = z.string().min(1, 'must not be empty');

const list = z.preprocess((v) => {
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return v;
}, z.array(z.string()));

const stringMap = z.preprocess((v) => {
  if (typeof v === 'string') {
    if (v.trim() === '') return {};
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v; // fails the object check below with a clear message
    }
  }
  return v ?? {};
}, z.record(z.string(), z.string(), { message: 'expected a JSON object of {"<APP_KEY>":"<APP_SECRET>"}' }));

const port = int(0, 65535);

const cidrList = list.superRefine((entries, ctx) => {
  try {
    parseCidrList(entries as string[]);
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
  }
});

/** A boolean whose default depends on the profile (undefined here, resolved in build()). */
const profileBool = bool.optional();

const actuatorExposure = list.pipe(
  z.array(z.enum(['health', 'info', 'prometheus', '*'], { message: 'expected health, info, prometheus or *' })),
).optional();

const originList = list.superRefine((entries, ctx) => {
  for (const e of entries as string[]) {
    if (e === '*') continue;
    let ok = false;
    try {
      const u = new URL(e);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === e.replace(/\/$/, '');
    } catch {
      ok = false;
    }
    if (!ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `"${e}" is not an origin (scheme://host[:port]) or *` });
  }
});

/** Every configuration key, with its validator and (never secret) default. */
const KEYS = {
  'session.token-name': { schema: nonEmpty, default: 'Authorization' },
  'session.token-prefix': { schema: str, default: 'Bearer' },
  'session.timeout': { schema: secondsOrOff, default: 604800 },
  'session.active-timeout': { schema: secondsOrOff, default: -1 },
  'session.is-concurrent': { schema: bool, default: true },
  'session.is-share': { schema: bool, default: false },
  'session.is-read-cookie': { schema: bool, default: false },
  'session.token-style': { schema: z.enum(['uuid', 'simple-uuid', 'random-64']), default: 'uuid' },
  'session.is-log': { schema: bool, default: false },
  'session.is-print': { schema: bool, default: false },
  'session.share-secret': { schema: str, default: '', secret: true },
  'svc.captcha.enabled': { schema: bool, default: true },
  'svc.captcha.captcha-type': { schema: z.enum(['math', 'text']), default: 'math' },
  'svc.captcha.ttl-seconds': { schema: int(10, 3600), default: 120 },
  'svc.captcha.rate-limit-per-minute': { schema: int(1, 100000), default: 30 },
  'svc.rsa-private-key': { schema: str, default: '', secret: true },
  'svc.rsa.padding': { schema: z.enum(['oaep-sha256', 'pkcs1']), default: 'oaep-sha256' },
  'svc.users-file': { schema: str, default: '' },
  'svc.members-file': { schema: str, default: '' },
  'svc.register.rate-limit-per-hour': { schema: int(1, 100000), default: 10 },
  'svc.refresh-token.ttl-seconds': { schema: int(60, 366 * 86400), default: 2592000 },
  'svc.password.bcrypt-cost': { schema: int(10, 15), default: 10 },
  'svc.login.max-failures': { schema: int(0, 1000), default: 10 },
  'svc.login.lock-seconds': { schema: int(1, 86400), default: 900 },
  'svc.crypto.worker-threads': { schema: int(0, 64), default: 0 },
  'svc.security.sign.enabled': { schema: bool, default: true },
  'svc.security.sign.timeoutSeconds': { schema: int(1, 86400), default: 300 },
  'svc.security.sign.nonceTtlSeconds': { schema: int(1, 7 * 86400), default: 600 },
  'svc.security.sign.apps': { schema: stringMap, default: {}, secret: true },
  'svc.idempotency.param-ttl-seconds': { schema: int(1, 3600), default: 5 },
  'svc.idempotency.token-ttl-seconds': { schema: int(1, 86400), default: 600 },
  'svc.idempotency.header-name': { schema: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'expected an HTTP header name'), default: 'Idempotency-Key' },
  'svc.idempotency.header-ttl-seconds': { schema: int(60, 30 * 86400), default: 86400 },
  'svc.idempotency.header-lock-seconds': { schema: int(1, 3600), default: 60 },
  'svc.xss.enabled': { schema: bool, default: true },
  'svc.xss.exclude-paths': {
    schema: list.refine((ps) => (ps as string[]).every((p) => /^\/[^*]*(\/\*\*)?$/.test(p)), 'expected paths like /exact or /prefix/**'),
    default: [],
  },
  'svc.examples.enabled': { schema: bool, default: false },
  'svc.store': { schema: z.enum(['memory', 'redis']), default: 'memory' },
  'svc.redis.url': { schema: str, default: '', secret: true },
  'svc.redis.key-prefix': { schema: str, default: 'ag:' },
  'svc.redis.command-timeout-ms': { schema: int(50, 60000), default: 2000 },
  'svc.admin.port': { schema: port, default: 8080 },
  'svc.web.port': { schema: port, default: 8081 },
  'svc.trusted-proxies': { schema: cidrList, default: [] },
  'svc.time-zone': { schema: str, default: '' },
  'svc.problem-base-uri': { schema: z.string().url('expected an absolute URI'), default: 'https://authguard.example/problems/' },
  'svc.body-limit-bytes': { schema: int(1024, 50 * 1024 * 1024), default: 1024 * 1024 },
  'svc.shutdown-grace-ms': { schema: int(0, 120000), default: 10000 },
  'svc.actuator.exposure': { schema: actuatorExposure, default: undefined },
  'svc.actuator.show-details': { schema: profileBool, default: undefined },
  'svc.openapi.enabled': { schema: profileBool, default: undefined },
  'svc.try-it.enabled': { schema: profileBool, default: undefined },
  'svc.cors.allowed-origins': { schema: originList, default: [] },
  'svc.server.headers-timeout-ms': { schema: int(1000, 600000), default: 15000 },
  'svc.server.request-timeout-ms': { schema: int(1000, 600000), default: 30000 },
  'svc.server.keep-alive-timeout-ms': { schema: int(100, 600000), default: 5000 },
  'svc.directory': { schema: z.enum(['file', 'sql']), default: 'file' },
  'svc.datasource.url': { schema: str, default: '' },
  'svc.datasource.username': { schema: str, default: '' },
  'svc.datasource.password': { schema: str, default: '', secret: true },
} as const;

export type ConfigKey = keyof typeof KEYS;
export const CONFIG_KEYS = Object.keys(KEYS) as ConfigKey[];

export function envNameOf(key: string): string {
  return key.toUpperCase().replace(/[.-]/g, '_');
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export interface AppConfig {
  readonly profile: Profile;
  readonly session: SessionPolicy & { readonly shareSecret: string };
  readonly captcha: { readonly enabled: boolean; readonly type: 'math' | 'text'; readonly ttlSeconds: number; readonly ratePerMinute: number };
  readonly rsaPrivateKey: string;
  readonly rsaPadding: 'oaep-sha256' | 'pkcs1';
  /** Absolute path of the embedded user directory file; '' = no seeded users. */
  readonly usersFile: string;
  /** Absolute path of the embedded member directory file (web app); '' = no seeded members. */
  readonly membersFile: string;
  /** `POST /auth/register` requests per hour per client IP (web app). */
  readonly registerPerHour: number;
  readonly refreshTokenTtlSeconds: number;
  readonly bcryptCost: number;
  readonly login: { readonly maxFailures: number; readonly lockSeconds: number };
  /** Size of the crypto worker pool (BCrypt, PKCS#1 RSA); 0 = one per CPU. */
  readonly cryptoWorkerThreads: number;
  readonly sign: {
    readonly enabled: boolean;
    readonly timeoutSeconds: number;
    readonly nonceTtlSeconds: number;
    readonly apps: Readonly<Record<string, string>>;
  };
  readonly idempotency: {
    readonly paramTtlSeconds: number;
    readonly tokenTtlSeconds: number;
    readonly headerName: string;
    readonly headerTtlSeconds: number;
    readonly headerLockSeconds: number;
  };
  readonly xss: { readonly enabled: boolean; readonly excludePaths: readonly string[] };
  /** Mount the example handlers (/open/echo, /examples/echo, /orders, /payments). */
  readonly examplesEnabled: boolean;
  readonly store: 'memory' | 'redis';
  readonly redis: { readonly url: string; readonly keyPrefix: string; readonly commandTimeoutMs: number };
  readonly adminPort: number;
  readonly webPort: number;
  readonly trustedProxies: readonly string[];
  /** IANA zone for formatted dates; the server's zone when not configured. */
  readonly timeZone: string;
  readonly problemBaseUri: string;
  readonly bodyLimitBytes: number;
  readonly shutdownGraceMs: number;
  readonly actuator: {
    /** Endpoints mounted under /actuator (dev/test: all; prod: health and info). */
    readonly exposure: ReadonlyArray<'health' | 'info' | 'prometheus'>;
    /** Health answers carry components and details (dev/test) or the status only (prod). */
    readonly showDetails: boolean;
  };
  /** /v3/api-docs and /swagger-ui are mounted (default: everywhere but prod). */
  readonly openapiEnabled: boolean;
  /** GET / on the admin app serves the try-it login page (default: dev only). */
  readonly tryItEnabled: boolean;
  /** Origins allowed to call the apps from a browser (CORS); empty = none. */
  readonly corsAllowedOrigins: readonly string[];
  /** Slow-client protection of the HTTP servers. */
  readonly server: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number; readonly keepAliveTimeoutMs: number };
  /** Where admin users and members live: the embedded files (default) or MySQL / MariaDB. */
  readonly directory: 'file' | 'sql';
  readonly datasource: { readonly url: string; readonly username: string; readonly password: string };
  /** Every key with its resolved value, for tooling (secrets included: never log this). */
  readonly raw: Readonly<Record<ConfigKey, unknown>>;
}

export interface LoadOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly configDir?: string;
  /** Overrides applied after the environment (tests). Keys are config keys. */
  readonly overrides?: Partial<Record<ConfigKey, unknown>>;
}

export const DEFAULT_CONFIG_DIR = path.join(packageRoot(), 'config');

/** Flattens a YAML tree down to known keys; anything else is reported as unknown. */
function flattenYaml(tree: unknown, file: string, out: Map<string, unknown>, problems: string[]): void {
  const known = new Set<string>(CONFIG_KEYS);
  const visit = (key: string, node: unknown): void => {
    if (known.has(key)) {
      out.set(key, node);
    } else if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) visit(`${key}.${k}`, v);
    } else {
      problems.push(`${key}: unknown configuration key (in ${file})`);
    }
  };
  if (tree === null || tree === undefined) return;
  if (typeof tree !== 'object' || Array.isArray(tree)) {
    problems.push(`${file}: expected a mapping at the top level`);
    return;
  }
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) visit(k, v);
}

function readYaml(file: string, out: Map<string, unknown>, problems: string[]): void {
  if (!existsSync(file)) return;
  try {
    flattenYaml(parseYaml(readFileSync(file, 'utf8')), path.basename(file), out, problems);
  } catch (e) {
    problems.push(`${path.basename(file)}: cannot be parsed (${(e as Error).message.split('\n')[0]})`);
  }
}

export function loadConfig(opts: LoadOptions = {}): AppConfig {
  const env = opts.env ?? process.env;
  const configDir = opts.configDir ?? env.SVC_CONFIG_DIR ?? DEFAULT_CONFIG_DIR;
  const problems: string[] = [];

  const profileRaw = (env.APP_PROFILE ?? 'dev').trim();
  if (!(PROFILES as readonly string[]).includes(profileRaw)) {
    throw new ConfigError([`APP_PROFILE: expected one of ${PROFILES.join(', ')}, got "${profileRaw}"`]);
  }
  const profile = profileRaw as Profile;

  const merged = new Map<string, unknown>();
  for (const key of CONFIG_KEYS) merged.set(key, KEYS[key].default);
  readYaml(path.join(configDir, 'application.yml'), merged, problems);
  readYaml(path.join(configDir, `application-${profile}.yml`), merged, problems);
  if (env.REDIS_URL !== undefined && env.SVC_REDIS_URL === undefined) merged.set('svc.redis.url', env.REDIS_URL);
  for (const key of CONFIG_KEYS) {
    const v = env[envNameOf(key)];
    if (v !== undefined) merged.set(key, v);
  }
  for (const [k, v] of Object.entries(opts.overrides ?? {})) merged.set(k, v);

  const raw = {} as Record<ConfigKey, unknown>;
  for (const key of CONFIG_KEYS) {
    const parsed = (KEYS[key].schema as z.ZodTypeAny).safeParse(merged.get(key));
    if (parsed.success) raw[key] = parsed.data;
    else problems.push(`${key} (${envNameOf(key)}): ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const cfg = build(profile, raw, configDir);
  problems.push(...crossChecks(cfg));
  if (problems.length > 0) throw new ConfigError(problems);
  return cfg;
}

function build(profile: Profile, r: Record<ConfigKey, unknown>, configDir: string): AppConfig {
  const usersFile = (r['svc.users-file'] as string).trim();
  const membersFile = (r['svc.members-file'] as string).trim();
  const s = <T>(k: ConfigKey) => r[k] as T;
  return {
    profile,
    session: {
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
    },
    captcha: {
      enabled: s<boolean>('svc.captcha.enabled'),
      type: s<'math' | 'text'>('svc.captcha.captcha-type'),
      ttlSeconds: s<number>('svc.captcha.ttl-seconds'),
      ratePerMinute: s<number>('svc.captcha.rate-limit-per-minute'),
    },
    rsaPrivateKey: s<string>('svc.rsa-private-key').trim(),
    rsaPadding: s<'oaep-sha256' | 'pkcs1'>('svc.rsa.padding'),
    usersFile: usersFile === '' ? '' : path.resolve(configDir, usersFile),
    membersFile: membersFile === '' ? '' : path.resolve(configDir, membersFile),
    registerPerHour: s<number>('svc.register.rate-limit-per-hour'),
    refreshTokenTtlSeconds: s<number>('svc.refresh-token.ttl-seconds'),
    bcryptCost: s<number>('svc.password.bcrypt-cost'),
    login: { maxFailures: s<number>('svc.login.max-failures'), lockSeconds: s<number>('svc.login.lock-seconds') },
    cryptoWorkerThreads: s<number>('svc.crypto.worker-threads'),
    sign: {
      enabled: s<boolean>('svc.security.sign.enabled'),
      timeoutSeconds: s<number>('svc.security.sign.timeoutSeconds'),
      nonceTtlSeconds: s<number>('svc.security.sign.nonceTtlSeconds'),
      apps: s<Record<string, string>>('svc.security.sign.apps'),
    },
    idempotency: {
      paramTtlSeconds: s<number>('svc.idempotency.param-ttl-seconds'),
      tokenTtlSeconds: s<number>('svc.idempotency.token-ttl-seconds'),
      headerName: s<string>('svc.idempotency.header-name'),
      headerTtlSeconds: s<number>('svc.idempotency.header-ttl-seconds'),
      headerLockSeconds: s<number>('svc.idempotency.header-lock-seconds'),
    },
    xss: { enabled: s<boolean>('svc.xss.enabled'), excludePaths: s<string[]>('svc.xss.exclude-paths') },
    examplesEnabled: s<boolean>('svc.examples.enabled'),
    store: s<'memory' | 'redis'>('svc.store'),
    redis: {
      url: s<string>('svc.redis.url').trim(),
      keyPrefix: s<string>('svc.redis.key-prefix'),
      commandTimeoutMs: s<number>('svc.redis.command-timeout-ms'),
    },
    adminPort: s<number>('svc.admin.port'),
    webPort: s<number>('svc.web.port'),
    trustedProxies: s<string[]>('svc.trusted-proxies'),
    timeZone: s<string>('svc.time-zone').trim() || Intl.DateTimeFormat().resolvedOptions().timeZone,
    problemBaseUri: s<string>('svc.problem-base-uri').replace(/\/?$/, '/'),
    bodyLimitBytes: s<number>('svc.body-limit-bytes'),
    shutdownGraceMs: s<number>('svc.shutdown-grace-ms'),
    actuator: {
      exposure: actuatorExposureOf(profile, s<string[] | undefined>('svc.actuator.exposure')),
      showDetails: s<boolean | undefined>('svc.actuator.show-details') ?? profile !== 'prod',
    },
    openapiEnabled: s<boolean | undefined>('svc.openapi.enabled') ?? profile !== 'prod',
    tryItEnabled: s<boolean | undefined>('svc.try-it.enabled') ?? profile === 'dev',
    corsAllowedOrigins: s<string[]>('svc.cors.allowed-origins'),
    server: {
      headersTimeoutMs: s<number>('svc.server.headers-timeout-ms'),
      requestTimeoutMs: s<number>('svc.server.request-timeout-ms'),
      keepAliveTimeoutMs: s<number>('svc.server.keep-alive-timeout-ms'),
    },
    directory: s<'file' | 'sql'>('svc.directory'),
    datasource: {
      url: s<string>('svc.datasource.url').trim(),
      username: s<string>('svc.datasource.username').trim(),
      password: s<string>('svc.datasource.password'),
    },
    raw: r,
  };
}

function actuatorExposureOf(profile: Profile, configured: readonly string[] | undefined): Array<'health' | 'info' | 'prometheus'> {
  const all = ['health', 'info', 'prometheus'] as const;
  if (configured === undefined) return profile === 'prod' ? ['health', 'info'] : [...all];
  return configured.includes('*') ? [...all] : all.filter((e) => configured.includes(e));
}

/** Rules that span keys, and the production rule: no default secrets, every missing one named at once. */
function crossChecks(c: AppConfig): string[] {
  const p: string[] = [];
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: c.timeZone });
  } catch {
    p.push(`svc.time-zone (SVC_TIME_ZONE): unknown time zone "${c.timeZone}"`);
  }
  if (c.session.isShare && c.session.isConcurrent && c.session.shareSecret.length < 32) {
    p.push('session.share-secret (SESSION_SHARE_SECRET): required (32+ characters) when session.is-share=true: shared tokens are re-derived from it, since only token hashes are stored');
  }
  for (const [app, secret] of Object.entries(c.sign.apps)) {
    if (app.trim() === '') p.push('svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): an app key is empty');
    else if (secret.length < 16) p.push(`svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): the secret of app "${app}" is shorter than 16 characters`);
  }
  if (c.rsaPrivateKey !== '') {
    try {
      parseRsaPrivateKey(c.rsaPrivateKey);
    } catch (e) {
      p.push(`svc.rsa-private-key (SVC_RSA_PRIVATE_KEY): ${(e as Error).message}`);
    }
  }
  if (c.usersFile !== '' && !existsSync(c.usersFile)) p.push(`svc.users-file (SVC_USERS_FILE): no such file ${c.usersFile}`);
  if (c.membersFile !== '' && !existsSync(c.membersFile)) p.push(`svc.members-file (SVC_MEMBERS_FILE): no such file ${c.membersFile}`);
  if (c.session.timeout !== -1 && c.refreshTokenTtlSeconds <= c.session.timeout) {
    p.push('svc.refresh-token.ttl-seconds (SVC_REFRESH_TOKEN_TTL_SECONDS): must be longer than session.timeout, so a client can refresh after its access token lapsed');
  }
  if (c.profile !== 'prod' && c.store === 'redis' && c.redis.url === '') p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): required when svc.store=redis');
  if (c.redis.url !== '') {
    try {
      const u = new URL(c.redis.url);
      if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error('scheme');
    } catch {
      p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): expected redis://[user:password@]host:port[/db] or rediss://...');
    }
  }
  if (c.directory === 'sql') {
    if (c.datasource.url === '') p.push('svc.datasource.url (SVC_DATASOURCE_URL): required when svc.directory=sql (mysql://host:port/database)');
    if (c.datasource.username === '') p.push('svc.datasource.username (SVC_DATASOURCE_USERNAME): required when svc.directory=sql');
  }
  if (c.datasource.url !== '') {
    try {
      parseDatasourceUrl(c.datasource.url);
    } catch (e) {
      p.push(`svc.datasource.url (SVC_DATASOURCE_URL): ${(e as Error).message}`);
    }
  }
  if (c.profile === 'prod') {
    if (c.directory === 'sql' && c.datasource.password === '') {
      p.push('svc.datasource.password (SVC_DATASOURCE_PASSWORD): required in prod when svc.directory=sql (no default secrets)');
    }
    if (c.store === 'memory') p.push('svc.store (SVC_STORE): "memory" is refused in prod; set svc.store=redis');
    if (c.rsaPrivateKey === '') p.push('svc.rsa-private-key (SVC_RSA_PRIVATE_KEY): required in prod (no default secrets)');
    if (c.redis.url === '') p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): required in prod, with its password');
    else {
      try {
        if (new URL(c.redis.url).password === '') p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): the URL carries no password; prod requires one');
      } catch {
        /* reported above */
      }
    }
    if (c.sign.enabled && Object.keys(c.sign.apps).length === 0) {
      p.push('svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): required in prod while svc.security.sign.enabled=true (a JSON object {"<APP_KEY>":"<APP_SECRET>"})');
    }
  }
  return p;
}
