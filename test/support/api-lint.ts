/**
 * Spectral's `spectral:oas` ruleset run on the OpenAPI documents the apps really serve: both apps
 * built in-process from a configuration, `/v3/api-docs` fetched from each, every finding kept with
 * its JSON path; and the two schema validators other tools rely on (Ajv against the official
 * OpenAPI 3.1 schema, and @apidevtools/swagger-parser). Shared by `npm run lint:api`
 * (scripts/lint-api.ts), test/http/spectral.test.ts and test/http/openapi-validators.test.ts.
 */
import 'reflect-metadata';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Document, Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import type { AppConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildAdminApp } from '../../src/main/admin';
import { buildWebApp } from '../../src/main/web';

export type AppName = 'admin' | 'web';
export const APP_NAMES: readonly AppName[] = ['admin', 'web'];

/**
 * `spectral:oas` as the Spectral CLI runs it (its recommended rules), plus two rules of the same
 * ruleset that it leaves off by default and that this API keeps: every global tag has a
 * description, and the document has global tags. (Not `info-license`: a package that is
 * UNLICENSED has no licence to name, so its documents carry none; see licenseOf.)
 */
export const API_RULESET: RulesetDefinition = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: { 'tag-description': 'warn', 'openapi-tags': 'warn' },
};

export type Severity = 'error' | 'warn' | 'info' | 'hint';
const SEVERITIES: readonly Severity[] = ['error', 'warn', 'info', 'hint'];

export interface ApiFinding {
  readonly severity: Severity;
  readonly code: string;
  /** JSON path of the offending node, dot-joined (`paths./auth/me.get.description`; '' = the root). */
  readonly path: string;
  readonly message: string;
}

/** Every finding of the ruleset on `doc`, errors first. */
export async function lintApiDocument(doc: unknown): Promise<ApiFinding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(API_RULESET);
  const results: ISpectralDiagnostic[] = await spectral.run(new Document(JSON.stringify(doc, null, 2), Json));
  return results
    .map((r) => ({ severity: SEVERITIES[r.severity] ?? 'hint', code: String(r.code), path: r.path.join('.'), message: r.message }))
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/** Errors and warnings fail; information and hints are printed only. */
export const isFailure = (f: ApiFinding): boolean => f.severity === 'error' || f.severity === 'warn';

export function formatFinding(app: AppName, f: ApiFinding): string {
  return `${app}: ${f.severity.padEnd(5)} ${f.code}  at ${f.path === '' ? '(document root)' : f.path}: ${f.message}`;
}

/** What the official OpenAPI 3.1 JSON schema (Ajv, @seriousme/openapi-schema-validator) finds wrong with `doc`; [] = valid. */
export async function officialSchemaProblems(doc: unknown): Promise<string[]> {
  const v = new Validator();
  const result = await v.validate(structuredClone(doc) as never);
  if (v.version !== '3.1') return [`validated as OpenAPI ${String(v.version)}, not 3.1`];
  if (result.valid) return [];
  const errors = Array.isArray(result.errors) ? result.errors : [result.errors];
  return errors.map((e) => JSON.stringify(e));
}

/**
 * What @apidevtools/swagger-parser (the validator most Node tooling is built on: its own 3.1 schema,
 * stricter than the official one in places, then its spec checks) finds wrong with `doc`; [] = valid.
 * It dereferences in place, hence the copy.
 */
export async function swaggerParserProblems(doc: unknown): Promise<string[]> {
  try {
    await SwaggerParser.validate(structuredClone(doc) as never);
    return [];
  } catch (e) {
    return [(e as Error).message];
  }
}

/** `/v3/api-docs` of both apps, built from `config` exactly as `npm start` builds them (no listening socket). */
export async function servedDocuments(config: AppConfig): Promise<Record<AppName, unknown>> {
  if (!config.openapiEnabled) throw new Error('svc.openapi.enabled is off for this configuration: the apps serve no API description');
  const infra = createInfrastructure(config, { log: silentLogger });
  try {
    const apps = { admin: buildAdminApp(config, infra), web: buildWebApp(config, infra) };
    const out = {} as Record<AppName, unknown>;
    for (const name of APP_NAMES) {
      const res = await request(apps[name].app.callback()).get('/v3/api-docs');
      if (res.status !== 200) throw new Error(`${name}: GET /v3/api-docs answered ${res.status}`);
      out[name] = res.body as unknown;
    }
    return out;
  } finally {
    await infra.close();
  }
}
