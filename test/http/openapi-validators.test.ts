/* eslint-disable @typescript-eslint/no-explicit-any -- the tests walk a parsed JSON document */
/**
 * The served OpenAPI documents are valid for every validator an integrator may point at them: Ajv
 * against the official OpenAPI 3.1 schema, and @apidevtools/swagger-parser (whose 3.1 schema is
 * stricter, e.g. a License object needs an `identifier` or a `url`). Spectral: spectral.test.ts.
 */
import assert from 'node:assert/strict';
import { loadConfig, type AppConfig } from '../../src/main/config';
import { APP_NAMES, officialSchemaProblems, servedDocuments, swaggerParserProblems, type AppName } from '../support/api-lint';
import { testConfig } from '../support/apps';

/** The test and dev profiles, and one with every document-level setting (servers, full contact). */
const CONFIGS: ReadonlyArray<{ label: string; config: () => AppConfig }> = [
  { label: 'test profile', config: () => testConfig() },
  { label: 'dev profile', config: () => loadConfig({ env: { APP_PROFILE: 'dev' } }) },
  {
    label: 'public URLs and a full contact',
    config: () =>
      testConfig({
        'svc.security.sign.public-urls': { admin: 'https://admin.example.com', web: 'https://api.example.com/shop' },
        'svc.openapi.contact-name': 'Platform team',
        'svc.openapi.contact-url': 'https://support.example.com',
        'svc.openapi.contact-email': 'api@example.com',
      }),
  },
];

describe('the served OpenAPI documents pass Ajv (official 3.1 schema) and swagger-parser', function () {
  this.timeout(60_000);

  for (const { label, config } of CONFIGS) {
    describe(label, () => {
      let docs: Record<AppName, any>;
      before(async () => {
        docs = await servedDocuments(config());
      });

      for (const app of APP_NAMES) {
        it(`${app}: valid against the official OpenAPI 3.1 schema (Ajv)`, async () => {
          assert.deepEqual(await officialSchemaProblems(docs[app]), []);
        });
        it(`${app}: valid for @apidevtools/swagger-parser`, async () => {
          assert.deepEqual(await swaggerParserProblems(docs[app]), []);
        });
      }
    });
  }

  it('swagger-parser refuses what the official schema lets pass: a License object with a name only', async () => {
    const doc = structuredClone((await servedDocuments(testConfig())).web) as any;
    doc.info.license = { name: 'UNLICENSED' };
    assert.deepEqual(await officialSchemaProblems(doc), []);
    const problems = await swaggerParserProblems(doc);
    assert.equal(problems.length, 1);
    assert.match(problems[0] as string, /license/i);
  });
});
