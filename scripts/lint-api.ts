/**
 * `npm run lint:api`: Spectral's `spectral:oas` on the OpenAPI documents both apps serve, built
 * in-process from the configuration `npm start` would load (APP_PROFILE, config/, the environment;
 * dev by default), then Ajv against the official OpenAPI 3.1 schema and @apidevtools/swagger-parser.
 * Prints every finding with its JSON path; exits 1 on any error, warning or validator problem, 2 when
 * the configuration cannot be loaded or serves no document.
 */
import { loadConfig } from '../src/main/config';
import {
  APP_NAMES,
  formatFinding,
  isFailure,
  lintApiDocument,
  officialSchemaProblems,
  servedDocuments,
  swaggerParserProblems,
} from '../test/support/api-lint';

async function main(): Promise<number> {
  let docs: Awaited<ReturnType<typeof servedDocuments>>;
  try {
    const config = loadConfig();
    console.log(`lint:api: spectral:oas on /v3/api-docs of admin and web (profile ${config.profile})`);
    docs = await servedDocuments(config);
  } catch (e) {
    console.error(`lint:api: ${(e as Error).message}`);
    return 2;
  }
  let failures = 0;
  for (const app of APP_NAMES) {
    const findings = await lintApiDocument(docs[app]);
    for (const f of findings) console.log(formatFinding(app, f));
    const failing = findings.filter(isFailure);
    failures += failing.length;
    const count = (s: string) => findings.filter((f) => f.severity === s).length;
    console.log(`${app}: ${count('error')} errors, ${count('warn')} warnings, ${count('info') + count('hint')} notes`);
    for (const [validator, problems] of [
      ['official OpenAPI 3.1 schema (Ajv)', await officialSchemaProblems(docs[app])],
      ['@apidevtools/swagger-parser', await swaggerParserProblems(docs[app])],
    ] as const) {
      for (const p of problems) console.log(`${app}: ${validator}: ${p}`);
      failures += problems.length;
      console.log(`${app}: ${validator}: ${problems.length === 0 ? 'valid' : `${problems.length} problems`}`);
    }
  }
  return failures > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(2);
  },
);
