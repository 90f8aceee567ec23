/** Reads and merges the configuration sources, validates every key, then builds and cross-checks. */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../../adapters/package-root';
import { ConfigError, type AppConfig, type KeyOrigin, type LoadOptions } from './app-config';
import { build } from './build';
import { crossChecks } from './cross-checks';
import { CONFIG_KEYS, declarationOf, envNameOf, envNamesOf, PROFILES, type ConfigKey, type Profile, type SettingValues } from './keys';

export const DEFAULT_CONFIG_DIR = path.join(packageRoot(), 'config');

/** The merged values and where each came from. */
interface Layers {
  readonly values: Map<string, unknown>;
  readonly origins: Map<string, KeyOrigin>;
}

function set(layers: Layers, key: string, value: unknown, origin: KeyOrigin): void {
  layers.values.set(key, value);
  layers.origins.set(key, origin);
}

/** Flattens a YAML tree down to known keys; anything else is reported as unknown. */
function flattenYaml(tree: unknown, file: string, out: (key: string, value: unknown) => void, problems: string[]): void {
  const known = new Set<string>(CONFIG_KEYS);
  const visit = (key: string, node: unknown): void => {
    if (known.has(key)) {
      out(key, node);
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

/** `packaged`: the file is one this package ships in config/ (a profile's own values), not the operator's. */
function readYaml(file: string, packaged: boolean, layers: Layers, problems: string[]): void {
  if (!existsSync(file)) return;
  const name = path.basename(file);
  const origin: KeyOrigin = { source: 'file', file: packaged ? `config/${name}` : name, packaged };
  try {
    flattenYaml(parseYaml(readFileSync(file, 'utf8')), name, (key, value) => set(layers, key, value, origin), problems);
  } catch (e) {
    problems.push(`${name}: cannot be parsed (${(e as Error).message.split('\n')[0]})`);
  }
}

function sameDirectory(a: string, b: string): boolean {
  const real = (d: string): string => {
    try {
      return realpathSync(d);
    } catch {
      return path.resolve(d);
    }
  };
  return real(a) === real(b);
}

/**
 * Maps keyed by signing app that a packaged profile file may carry next to its own demo apps. An
 * operator who brings their own svc.security.sign.apps replaces the profile's apps, so the profile's
 * entries for apps no longer configured are dropped (with a warning) rather than refusing the start.
 * (svc.security.sign.public-urls is keyed by Koa app, admin or web, not by signing app.)
 */
const PER_SIGN_APP_MAPS = ['svc.security.sign.schemes'] as const satisfies readonly ConfigKey[];

function dropProfileEntriesOfUnknownApps(raw: Record<ConfigKey, unknown>, origins: Record<ConfigKey, KeyOrigin>): string[] {
  const warnings: string[] = [];
  const apps = raw['svc.security.sign.apps'] as Record<string, string>;
  for (const key of PER_SIGN_APP_MAPS) {
    const origin = origins[key];
    if (origin.source !== 'file' || !origin.packaged) continue;
    const kept: Record<string, unknown> = {};
    for (const [app, value] of Object.entries(raw[key] as Record<string, unknown>)) {
      if (Object.hasOwn(apps, app)) {
        kept[app] = value;
        continue;
      }
      warnings.push(
        `${key} (${envNameOf(key)}): the entry for app "${app}" in ${origin.file} is ignored: ` +
          `"${app}" is not in svc.security.sign.apps (${envNameOf('svc.security.sign.apps')}); set ` +
          `${envNameOf(key)} for your own apps`,
      );
    }
    raw[key] = kept;
  }
  return warnings;
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

  const layers: Layers = { values: new Map(), origins: new Map() };
  for (const key of CONFIG_KEYS) set(layers, key, declarationOf(key).default, { source: 'default' });
  const packaged = sameDirectory(configDir, DEFAULT_CONFIG_DIR);
  readYaml(path.join(configDir, 'application.yml'), packaged, layers, problems);
  readYaml(path.join(configDir, `application-${profile}.yml`), packaged, layers, problems);
  for (const key of CONFIG_KEYS) {
    const v = envNamesOf(key)
      .map((name) => env[name])
      .find((value) => value !== undefined);
    if (v !== undefined) set(layers, key, v, { source: 'environment' });
  }
  for (const [k, v] of Object.entries(opts.overrides ?? {})) set(layers, k, v, { source: 'override' });

  const raw = {} as Record<ConfigKey, unknown>;
  const origins = {} as Record<ConfigKey, KeyOrigin>;
  for (const key of CONFIG_KEYS) {
    origins[key] = layers.origins.get(key) as KeyOrigin;
    const parsed = declarationOf(key).schema.safeParse(layers.values.get(key));
    if (parsed.success) raw[key] = parsed.data;
    else problems.push(`${key} (${envNameOf(key)}): ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const loadWarnings = dropProfileEntriesOfUnknownApps(raw, origins);
  // Every value passed its key's schema above, so each is that schema's output.
  const cfg = build(profile, raw as SettingValues, configDir, { origins, loadWarnings });
  problems.push(...crossChecks(cfg));
  if (problems.length > 0) throw new ConfigError(problems);
  return cfg;
}
