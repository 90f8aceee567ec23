/** The configuration keys, the profiles, and the environment variable of each key. */
import { z } from 'zod';
import { actuatorExposure, bool, cidrList, int, list, nonEmpty, originList, port, profileBool, secondsOrOff, str, stringMap } from './values';
import { emailOrEmpty, hostPortList, httpUrlOrEmpty, publicUrlMap, signSchemeMap } from './values';

export type Profile = 'dev' | 'test' | 'prod';
export const PROFILES: readonly Profile[] = ['dev', 'test', 'prod'];

/** Every configuration key, with its validator and (never secret) default. */
export const KEYS = {
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
  'svc.captcha.math-min': { schema: int(0, 9999), default: 10 },
  'svc.captcha.math-max': { schema: int(0, 9999), default: 99 },
  'svc.rsa-private-key': { schema: str, default: '', secret: true },
  'svc.rsa.padding': { schema: z.enum(['oaep-sha256', 'pkcs1']), default: 'oaep-sha256' },
  'svc.users-file': { schema: str, default: '' },
  'svc.members-file': { schema: str, default: '' },
  'svc.register.rate-limit-per-hour': { schema: int(1, 100000), default: 10 },
  'svc.refresh-token.ttl-seconds': { schema: int(60, 366 * 86400), default: 2592000 },
  'svc.refresh-token.absolute-ttl-seconds': { schema: int(1, 100 * 366 * 86400), default: 90 * 86400 },
  'svc.password.bcrypt-cost': { schema: int(10, 15), default: 10 },
  'svc.login.max-failures': { schema: int(0, 1000), default: 10 },
  'svc.login.lock-seconds': { schema: int(1, 86400), default: 900 },
  'svc.login.device-cookie-secret': { schema: str, default: '', secret: true },
  'svc.login.device-cookie-previous-secret': { schema: str, default: '', secret: true },
  'svc.login.device-cookie-max-age-seconds': { schema: int(3600, 400 * 86400), default: 365 * 86400 },
  'svc.crypto.worker-threads': { schema: int(0, 64), default: 0 },
  'svc.security.sign.enabled': { schema: bool, default: true },
  'svc.security.sign.timeoutSeconds': { schema: int(1, 86400), default: 300 },
  'svc.security.sign.nonceTtlSeconds': { schema: int(1, 7 * 86400), default: 600 },
  'svc.security.sign.apps': { schema: stringMap, default: {}, secret: true },
  'svc.security.sign.schemes': { schema: signSchemeMap, default: {} },
  'svc.security.sign.public-urls': { schema: publicUrlMap, default: {} },
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
  'svc.redis.mode': { schema: z.enum(['standalone', 'sentinel', 'cluster']), default: 'standalone' },
  'svc.redis.password': { schema: str, default: '', secret: true },
  'svc.redis.sentinels': { schema: hostPortList, default: [] },
  'svc.redis.master-name': { schema: nonEmpty, default: 'mymaster' },
  'svc.redis.sentinel-password': { schema: str, default: '', secret: true },
  'svc.redis.wait-replicas': { schema: int(0, 64), default: 0 },
  'svc.admin.port': { schema: port, default: 8080 },
  'svc.web.port': { schema: port, default: 8081 },
  'svc.trusted-proxies': { schema: cidrList, default: [] },
  'svc.time-zone': { schema: str, default: '' },
  'svc.problem-base-uri': { schema: z.string().url('expected an absolute URI'), default: 'https://authguard.example/problems/' },
  'svc.body-limit-bytes': { schema: int(1024, 50 * 1024 * 1024), default: 1024 * 1024 },
  'svc.http.max-query-params': { schema: int(1, 100000), default: 1000 },
  'svc.shutdown-grace-ms': { schema: int(0, 120000), default: 10000 },
  'svc.actuator.exposure': { schema: actuatorExposure, default: undefined },
  'svc.actuator.show-details': { schema: profileBool, default: undefined },
  'svc.openapi.enabled': { schema: profileBool, default: undefined },
  'svc.openapi.contact-name': { schema: z.string().trim().min(1, 'must not be empty'), default: 'authguard operators' },
  'svc.openapi.contact-url': { schema: httpUrlOrEmpty, default: '' },
  'svc.openapi.contact-email': { schema: emailOrEmpty, default: '' },
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
