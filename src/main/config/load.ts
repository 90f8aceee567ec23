/** Reads and merges the configuration sources, validates every key, then builds and cross-checks. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { packageRoot } from '../../adapters/package-root';
import { ConfigError, type AppConfig, type LoadOptions } from './app-config';
import { build } from './build';
import { crossChecks } from './cross-checks';
import { CONFIG_KEYS, envNameOf, KEYS, PROFILES, type ConfigKey, type Profile } from './keys';

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
