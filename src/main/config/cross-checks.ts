/** Rules that span keys: each problem names its key and environment variable, all reported at once. */
import { existsSync } from 'node:fs';
import { MAX_ANSWER_ODDS, mathAnswerOdds } from '../../adapters/captcha/svg-captcha-generator';
import { parseRsaPrivateKey } from '../../adapters/crypto/rsa';
import { catchAllFamilies, wideRanges } from '../../adapters/koa/client-ip';
import { redisModeOf, storeBackendOf } from '../store-backends';
import { parseDatasourceUrl } from '../../adapters/sql/mysql-pool';
import { isSfString } from '../../domain/signing';
import type { AppConfig, RedisSettings } from './app-config';
import { urlPassword } from './build';
import { hmacLengthChecks } from './declared-rules';
import { named } from './keys';
import { mfaChecks, mfaWarnings } from './mfa-checks';
import { prodSecretChecks } from './prod-secrets';
import { secretStrengthChecks } from './secret-strength';

/**
 * Every app given schemes is registered; an RFC 9421 app key is its `keyid`, an sf-string (printable ASCII).
 * (A packaged profile's entries for apps the operator did not configure were already dropped with a
 * warning at load; what is left here the operator wrote, in the environment or their own files.)
 */
function signSchemeChecks(c: AppConfig): string[] {
  const p: string[] = [];
  const origin = c.origins['svc.security.sign.schemes'];
  const where = origin.source === 'file' ? ` (the entry is in ${origin.file})` : '';
  for (const [app, schemes] of Object.entries(c.sign.schemes)) {
    if (!Object.hasOwn(c.sign.apps, app))
      p.push(`svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): app "${app}" is not in svc.security.sign.apps${where}`);
    else if (schemes.includes('rfc9421') && !isSfString(app)) {
      p.push(
        `svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): app "${app}" signs with rfc9421, so ` +
          `its key (the keyid) must be printable ASCII`,
      );
    }
  }
  return p;
}

/** Values that must parse or agree with each other: time zone, shared tokens, signing apps, RSA key, files, token lifetimes. */
function valueChecks(c: AppConfig): string[] {
  const p: string[] = [];
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: c.timeZone });
  } catch {
    p.push(`svc.time-zone (SVC_TIME_ZONE): unknown time zone "${c.timeZone}"`);
  }
  if (c.session.isShare && c.session.isConcurrent && c.session.shareSecret.length < 32) {
    p.push(
      'session.share-secret (SESSION_SHARE_SECRET): required (32+ characters) when ' +
        'session.is-share=true: shared tokens are re-derived from it, since only token hashes are stored',
    );
  }
  for (const [app, secret] of Object.entries(c.sign.apps)) {
    if (app.trim() === '') p.push('svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): an app key is empty');
    else if (secret.length < 16)
      p.push(`svc.security.sign.apps (SVC_SECURITY_SIGN_APPS): the secret of app "${app}" is shorter than 16 characters`);
  }
  p.push(...signSchemeChecks(c));
  p.push(...hmacLengthChecks(c));
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
    p.push(
      'svc.refresh-token.ttl-seconds (SVC_REFRESH_TOKEN_TTL_SECONDS): must be longer than ' +
        'session.timeout, so a client can refresh after its access token lapsed',
    );
  }
  return p;
}

/** Cluster mode: seed nodes, a prefix without hash-tag braces, database 0; svc.redis.nodes in no other mode. */
function clusterChecks(r: RedisSettings): string[] {
  if (!redisModeOf(r).usesNodes) {
    return r.nodes.length > 0
      ? [`svc.redis.nodes (SVC_REDIS_NODES): only used when svc.redis.mode=cluster (svc.redis.mode is ${r.mode})`]
      : [];
  }
  const p: string[] = [];
  if (r.nodes.length === 0)
    p.push('svc.redis.nodes (SVC_REDIS_NODES): required when svc.redis.mode=cluster (a comma list of host:port seed nodes)');
  if (/[{}]/.test(r.keyPrefix)) {
    p.push(
      `svc.redis.key-prefix (SVC_REDIS_KEY_PREFIX): must not contain "{" or "}" when ` +
        `svc.redis.mode=cluster: a hash tag in the prefix would put every key of the service in one slot, on one master`,
    );
  }
  if (urlDatabase(r.url) > 0)
    p.push(
      'svc.redis.url (SVC_REDIS_URL or REDIS_URL): a Redis Cluster has database 0 only; drop the ' +
        "/<db> (in cluster mode only the URL's user and password are used)",
    );
  return p;
}

/** The database of a redis:// URL (0 when it names none or does not parse: the URL check reports that). */
function urlDatabase(url: string): number {
  try {
    return Number(new URL(url).pathname.replace(/^\//, '') || 0) || 0;
  } catch {
    return 0;
  }
}

/** The Redis topology: what each mode needs, and the keys that only make sense in another mode. */
function redisChecks(c: AppConfig): string[] {
  const p: string[] = [];
  const r = c.redis;
  const mode = redisModeOf(r);
  const inUse = storeBackendOf(c) === mode;
  if (inUse && mode.localSessionCache === 'refused' && c.sessionCache.enabled) {
    p.push(
      'session.local-cache.enabled (SESSION_LOCAL_CACHE_ENABLED): the local session cache is not ' +
        'supported with svc.redis.mode=cluster (it would need one tracking connection per master); set it to false',
    );
  }
  if (mode.urlNamesServer && c.profile !== 'prod' && inUse && r.url === '')
    p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): required when svc.store=redis');
  if (mode.usesSentinels && r.sentinels.length === 0)
    p.push('svc.redis.sentinels (SVC_REDIS_SENTINELS): required when svc.redis.mode=sentinel (a comma list of host:port)');
  if (!mode.usesSentinels) {
    if (r.sentinels.length > 0)
      p.push(`svc.redis.sentinels (SVC_REDIS_SENTINELS): only used when svc.redis.mode=sentinel (svc.redis.mode is ${r.mode})`);
    if (c.raw['svc.redis.sentinel-password'] !== '')
      p.push(
        `svc.redis.sentinel-password (SVC_REDIS_SENTINEL_PASSWORD): only used when svc.redis.mode=sentinel (svc.redis.mode is ${r.mode})`,
      );
  }
  p.push(...clusterChecks(r));
  if (r.url !== '') {
    try {
      const u = new URL(r.url);
      if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error('scheme');
      const own = c.raw['svc.redis.password'];
      if (own !== '' && urlPassword(r.url) !== '' && urlPassword(r.url) !== own) {
        p.push('svc.redis.password (SVC_REDIS_PASSWORD): differs from the password in svc.redis.url; set the password in one place');
      }
    } catch {
      p.push('svc.redis.url (SVC_REDIS_URL or REDIS_URL): expected redis://[user:password@]host:port[/db] or rediss://...');
    }
  }
  return p;
}

/** The store and the directory backend: their URLs, and what svc.store=redis / svc.directory=sql require. */
function backendChecks(c: AppConfig): string[] {
  const p: string[] = redisChecks(c);
  if (c.directory === 'sql') {
    if (c.datasource.url === '')
      p.push('svc.datasource.url (SVC_DATASOURCE_URL): required when svc.directory=sql (mysql://host:port/database)');
    if (c.datasource.username === '') p.push('svc.datasource.username (SVC_DATASOURCE_USERNAME): required when svc.directory=sql');
  }
  if (c.raw['svc.audit.sinks'].includes('sql') && (c.datasource.url === '' || c.datasource.username === '')) {
    p.push('svc.audit.sinks (SVC_AUDIT_SINKS): `sql` needs svc.datasource.url and svc.datasource.username (the tables of migration 006)');
  }
  if (c.datasource.url !== '') {
    try {
      parseDatasourceUrl(c.datasource.url);
    } catch (e) {
      p.push(`svc.datasource.url (SVC_DATASOURCE_URL): ${(e as Error).message}`);
    }
  }
  return p;
}

/** Math captcha operands: an ordered range whose most likely answer stays within MAX_ANSWER_ODDS. */
function captchaChecks(c: AppConfig): string[] {
  const { mathMin: min, mathMax: max } = c.captcha;
  const keys = 'svc.captcha.math-min (SVC_CAPTCHA_MATH_MIN), svc.captcha.math-max (SVC_CAPTCHA_MATH_MAX)';
  if (min > max) return [`${keys}: math-min ${min} is above math-max ${max}`];
  const odds = mathAnswerOdds(min, max);
  if (odds <= MAX_ANSWER_ODDS) return [];
  const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
  return [
    `${keys}: with operands ${min}..${max} the most likely math captcha answer comes up ` +
      `${pct(odds)} of the time, above ${pct(MAX_ANSWER_ODDS)}; widen the range (the default ` +
      `10..99 gives ${pct(mathAnswerOdds(10, 99))})`,
  ];
}

/** What a catch-all svc.trusted-proxies means, or null when the list names real proxies. */
function catchAllProxyProblem(c: AppConfig): string | null {
  const families = catchAllFamilies(c.trustedProxies);
  if (families.length === 0) return null;
  return (
    `svc.trusted-proxies (SVC_TRUSTED_PROXIES): "${c.trustedProxies.join(',')}" trusts every ` +
    `${families.join(' and every ')} address as a proxy, so any client can name its own IP in ` +
    `X-Forwarded-For and escape the per-IP limits; list exactly your proxies`
  );
}

/** Prod: a trusted range wider than /8 (IPv4) or /32 (IPv6), unless svc.trusted-proxies-allow-wide; null when none. */
function wideProxyProblem(c: AppConfig): string | null {
  if (c.trustedProxiesAllowWide) return null;
  const wide = wideRanges(c.trustedProxies);
  if (wide.length === 0) return null;
  return (
    `svc.trusted-proxies (SVC_TRUSTED_PROXIES): ${wide.map((r) => `"${r}"`).join(', ')} ` +
    `${wide.length === 1 ? 'is' : 'are'} wider than /8 (IPv4) or /32 (IPv6): any host in such a ` +
    `range may name any client IP in X-Forwarded-For; list exactly your proxies, or set ` +
    `svc.trusted-proxies-allow-wide=true (SVC_TRUSTED_PROXIES_ALLOW_WIDE) if only your proxies live there`
  );
}

/** The registered apps that may sign with v1: those whose schemes include it, and those given none (v1 is the default). */
function v1Apps(c: AppConfig): string[] {
  if (!c.sign.enabled) return [];
  return Object.keys(c.sign.apps).filter((app) => !Object.hasOwn(c.sign.schemes, app) || (c.sign.schemes[app] ?? []).includes('v1'));
}

/** Prod settings that are allowed but weaker than they could be: the captcha off, apps that may sign with v1, no mail server. */
function prodWarnings(c: AppConfig): string[] {
  if (c.profile !== 'prod') return [];
  const warnings: string[] = [];
  if (!c.captcha.enabled) {
    warnings.push(
      'svc.captcha.enabled (SVC_CAPTCHA_ENABLED) is false in prod: the admin login asks no ' +
        'captcha, so only the login lock and the rate limits slow password guessing',
    );
  }
  const v1 = v1Apps(c);
  if (v1.length > 0) {
    warnings.push(
      `svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): ` +
        `${v1.map((a) => `"${a}"`).join(', ')} may sign with v1, the legacy default scheme (the ` +
        `seed's; it signs neither the method nor the path): ` +
        'give each app "rfc9421" once its clients sign with RFC 9421 HTTP Message Signatures',
    );
  }
  if (c.raw['svc.mail.smtp-url'].trim() === '') {
    warnings.push(
      `${named('svc.mail.smtp-url')} is not set in prod: no e-mail can be sent, so the routes that ` +
        'send one (e-mail verification, password reset) answer 503 mail-unavailable',
    );
  }
  return warnings;
}

/** Configurations that start but deserve a warning at start (what loading set aside; a catch-all proxy list: dev and test only, refused in
 * prod). */
export function configWarnings(c: AppConfig): string[] {
  const proxy = c.profile === 'prod' ? null : catchAllProxyProblem(c);
  const warnings = [...c.loadWarnings, ...(proxy === null ? [] : [proxy])];
  warnings.push(...prodWarnings(c), ...mfaWarnings(c));
  if (storeBackendOf(c).localSessionCache === 'ignored' && c.sessionCache.enabled) {
    warnings.push(
      'session.local-cache.enabled (SESSION_LOCAL_CACHE_ENABLED) is ignored with ' +
        'svc.store=memory: the in-memory store already lives in the process',
    );
  }
  return warnings;
}

/** Rules that span keys, and the production rule: no default secrets, every missing one named at once. */
export function crossChecks(c: AppConfig): string[] {
  const proxy = c.profile === 'prod' ? (catchAllProxyProblem(c) ?? wideProxyProblem(c)) : null;
  return [
    ...valueChecks(c),
    ...captchaChecks(c),
    ...mfaChecks(c),
    ...backendChecks(c),
    ...prodSecretChecks(c),
    ...secretStrengthChecks(c),
    ...(proxy === null ? [] : [proxy]),
  ];
}
