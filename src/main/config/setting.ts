/**
 * The declaration of one configuration key: everything about it lives in that one place (a
 * file of src/main/config/settings/), and the rest is derived from it: the value's type (its
 * schema's output), the environment variable, the simple production rules, and the row of
 * docs/configuration.md (`npm run docs:config`).
 */
import type { z } from 'zod';

export interface SettingDeclaration<S extends z.ZodTypeAny = z.ZodTypeAny> {
  /** Validates YAML natives and environment strings; its output type is the value's type. */
  readonly schema: S;
  /** The built-in default, never a secret (undefined: resolved per profile in build.ts). */
  readonly default: z.input<S> & z.output<S>;
  /** One line for the Meaning column of docs/configuration.md (Markdown). */
  readonly doc: string;
  /** The Default column when the default depends on the profile or needs a gloss; else it is derived from `default`. */
  readonly defaultText?: string;
  /** The environment variable, when it is not the key upper-cased with `.` and `-` turned into `_`. */
  readonly env?: string;
  /** Older variables still read when the variable is not set (the first set one wins). */
  readonly envAliases?: readonly string[];
  /** Never logged, never given a default; the docs show (none). */
  readonly secret?: true;
  /** An HMAC key: prod refuses a published or low-entropy one; `minLength`: shorter values are refused in every profile. */
  readonly hmac?: { readonly minLength?: number };
  /** Prod refuses to start while the value is empty; the refusal reads `<key> (<env>): required in prod (<why>)`. */
  readonly requiredInProd?: { readonly why: string };
}

/** Declares a key (the identity function: it keeps the schema's type for the typed reader). */
export function setting<S extends z.ZodTypeAny>(declaration: SettingDeclaration<S>): SettingDeclaration<S> {
  return declaration;
}
