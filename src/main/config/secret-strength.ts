/**
 * The production rule for HMAC secrets: no secret the repository publishes, no low-entropy one.
 *
 * A secret is low-entropy when it has fewer than MIN_DISTINCT_CHARACTERS distinct characters, or
 * when it is a shorter sequence repeated (its smallest period is at most half its length:
 * `abcabcabc…`, `0123456789abcdef0123456789abcdef`). That catches placeholders and typed patterns,
 * not every guessable secret; a random secret of the minimum length passes it (16 random hex
 * characters fail it with odds of about 3 in 100,000; 32 base64 characters practically never).
 * Generate secrets, e.g. `openssl rand -base64 32`.
 */
import type { AppConfig } from './app-config';
import { HMAC_KEYS, trimmedText } from './declared-rules';
import { named } from './keys';

/** Fewer distinct characters than this is low-entropy. */
export const MIN_DISTINCT_CHARACTERS = 6;

/**
 * Signing secrets the repository publishes (config/application-dev.yml's `demo-app`, the
 * integration guide's examples): anyone holding the repository can sign with them.
 */
export const PUBLISHED_SECRETS: readonly string[] = ['dev-only-demo-secret-not-for-production'];

/** The smallest p such that every character equals the one p places further (the length when none). */
function smallestPeriod(s: readonly string[]): number {
  for (let p = 1; p < s.length; p++) {
    let periodic = true;
    for (let i = 0; i + p < s.length && periodic; i++) periodic = s[i] === s[i + p];
    if (periodic) return p;
  }
  return s.length;
}

/** Why a secret is refused in prod, or null when it passes. */
export function weakSecretReason(secret: string): string | null {
  if (PUBLISHED_SECRETS.includes(secret)) return 'is the demo secret the repository publishes';
  const chars = [...secret];
  const distinct = new Set(chars).size;
  if (distinct < MIN_DISTINCT_CHARACTERS)
    return `is low-entropy: ${distinct} distinct character${distinct === 1 ? '' : 's'}, fewer than ${MIN_DISTINCT_CHARACTERS}`;
  const period = smallestPeriod(chars);
  if (period * 2 <= chars.length) return `is low-entropy: a ${period}-character sequence repeated`;
  return null;
}

/**
 * Every HMAC secret setting that holds a value: [key and env var, what, secret]; the keys declared
 * `hmac` (setting.ts), after each app secret of svc.security.sign.apps. Passwords of Redis and the
 * database are theirs to police.
 */
function hmacSecretsOf(c: AppConfig): Array<readonly [string, string, string]> {
  const appsKey = named('svc.security.sign.apps');
  const apps = Object.entries(c.sign.apps).map(([app, secret]) => [appsKey, `the secret of app "${app}"`, secret] as const);
  const declared = HMAC_KEYS.map((key) => [named(key), 'the secret', trimmedText(c, key)] as const);
  return [...apps, ...declared].filter(([, , secret]) => secret !== '');
}

/** Prod: every HMAC secret that is published or low-entropy, named by key (never echoing the value). */
export function secretStrengthChecks(c: AppConfig): string[] {
  if (c.profile !== 'prod') return [];
  const p: string[] = [];
  for (const [key, what, secret] of hmacSecretsOf(c)) {
    const reason = weakSecretReason(secret);
    if (reason !== null) p.push(`${key}: ${what} ${reason}; prod refuses it (generate one, e.g. openssl rand -base64 32)`);
  }
  return p;
}
