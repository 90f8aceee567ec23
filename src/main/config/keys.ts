/**
 * The configuration keys, the profiles, and the environment variable of each key. Each key is
 * declared once, in the file of its area under settings/ (see setting.ts for what a declaration holds).
 */
import type { z } from 'zod';
import type { SettingDeclaration } from './setting';
import { ACCOUNT_KEYS } from './settings/account';
import { AUDIT_KEYS } from './settings/audit';
import { DIRECTORY_KEYS } from './settings/directory';
import { HTTP_KEYS } from './settings/http';
import { LOGIN_KEYS } from './settings/login';
import { MFA_KEYS } from './settings/mfa';
import { PROTECTION_KEYS } from './settings/protection';
import { SESSION_KEYS } from './settings/session';
import { STORE_KEYS } from './settings/store';

export type Profile = 'dev' | 'test' | 'prod';
export const PROFILES: readonly Profile[] = ['dev', 'test', 'prod'];

/** Every configuration key with its declaration, in the order problems are reported and the docs list them. */
export const KEYS = {
  ...SESSION_KEYS,
  ...LOGIN_KEYS,
  ...PROTECTION_KEYS,
  ...STORE_KEYS,
  ...HTTP_KEYS,
  ...DIRECTORY_KEYS,
  ...ACCOUNT_KEYS,
  ...MFA_KEYS,
  ...AUDIT_KEYS,
};

export type ConfigKey = keyof typeof KEYS;
export const CONFIG_KEYS = Object.keys(KEYS) as ConfigKey[];

/** The validated value of a key: its schema's output type. */
export type SettingValue<K extends ConfigKey> = z.output<(typeof KEYS)[K]['schema']>;
/** Every key's validated value. */
export type SettingValues = { readonly [K in ConfigKey]: SettingValue<K> };

function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(KEYS, key);
}

/** The declaration of a key, widened (for code that walks every key). */
export function declarationOf(key: ConfigKey): SettingDeclaration {
  return KEYS[key];
}

/** The environment variable of a key: its declared one, else the key upper-cased with '.' and '-' turned into '_'. */
export function envNameOf(key: string): string {
  return (isConfigKey(key) ? declarationOf(key).env : undefined) ?? key.toUpperCase().replace(/[.-]/g, '_');
}

/** The variables read for a key, the one that wins first (its aliases are read only when it is not set). */
export function envNamesOf(key: ConfigKey): readonly string[] {
  return [envNameOf(key), ...(declarationOf(key).envAliases ?? [])];
}

/** How problems name a key: `svc.redis.url (SVC_REDIS_URL or REDIS_URL)`. */
export function named(key: ConfigKey): string {
  return `${key} (${envNamesOf(key).join(' or ')})`;
}
