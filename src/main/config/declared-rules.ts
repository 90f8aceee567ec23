/**
 * The rules a key states in its own declaration (setting.ts): required in prod, an HMAC key's
 * minimum length. Each problem names its key and environment variable.
 */
import type { AppConfig } from './app-config';
import { CONFIG_KEYS, declarationOf, named, type ConfigKey } from './keys';

/** A key's value as the service uses it: a string trimmed, '' when it is not a string. */
export function trimmedText(c: AppConfig, key: ConfigKey): string {
  const value: unknown = c.raw[key];
  return typeof value === 'string' ? value.trim() : '';
}

/** No value: '' (or blanks), no entry in a list or a map, or unset. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** The keys that declare an HMAC key, in declaration order. */
export const HMAC_KEYS: readonly ConfigKey[] = CONFIG_KEYS.filter((key) => declarationOf(key).hmac !== undefined);

/** Prod: every key declared `requiredInProd` that has no value. */
export function requiredInProdChecks(c: AppConfig): string[] {
  if (c.profile !== 'prod') return [];
  const p: string[] = [];
  for (const key of CONFIG_KEYS) {
    const rule = declarationOf(key).requiredInProd;
    if (rule !== undefined && isEmpty(c.raw[key])) p.push(`${named(key)}: required in prod (${rule.why})`);
  }
  return p;
}

/** Every profile: an HMAC key that is set is at least its declared minimum length. */
export function hmacLengthChecks(c: AppConfig): string[] {
  const p: string[] = [];
  for (const key of HMAC_KEYS) {
    const min = declarationOf(key).hmac?.minLength ?? 0;
    const secret = trimmedText(c, key);
    if (secret !== '' && secret.length < min) p.push(`${named(key)}: shorter than ${min} characters`);
  }
  return p;
}
