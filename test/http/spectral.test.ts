/* eslint-disable @typescript-eslint/no-explicit-any -- the tests walk a parsed JSON document */
import assert from 'node:assert/strict';
import { loadConfig, type AppConfig } from '../../src/main/config';
import { APP_NAMES, formatFinding, isFailure, lintApiDocument, servedDocuments, type AppName } from '../support/api-lint';
import { testConfig } from '../support/apps';

/** The configurations the documents are served with: the test profile and the dev default (try-it page included). */
const CONFIGS: ReadonlyArray<{ label: string; config: () => AppConfig }> = [
  { label: 'test profile', config: () => testConfig() },
  { label: 'dev profile', config: () => loadConfig({ env: { APP_PROFILE: 'dev' } }) },
];

describe('Spectral spectral:oas on the served OpenAPI documents', function () {
  this.timeout(60000);

  for (const { label, config } of CONFIGS) {
    describe(label, () => {
      let docs: Record<AppName, any>;
      before(async () => {
        docs = await servedDocuments(config());
      });

      for (const app of APP_NAMES) {
        it(`${app}: 0 errors and 0 warnings`, async () => {
          const failing = (await lintApiDocument(docs[app])).filter(isFailure);
          assert.deepEqual(
            failing.map((f) => formatFinding(app, f)),
            [],
          );
        });
      }

      it(
        'declares servers, contact, no licence (the package is UNLICENSED) and a described global ' + 'tag for every tag an operation uses',
        () => {
          for (const app of APP_NAMES) {
            const doc = docs[app];
            const port = app === 'admin' ? 8080 : 8081;
            assert.deepEqual(
              doc.servers.map((s: any) => s.url),
              [`http://localhost:${port}`],
            );
            assert.equal(doc.info.contact.name, 'authguard operators');
            assert.equal(doc.info.license, undefined, 'UNLICENSED has no SPDX identifier and no URL: no License object');
            const declared = new Map<string, string>(doc.tags.map((t: any) => [t.name, t.description]));
            for (const [path, ops] of Object.entries<any>(doc.paths)) {
              for (const [method, op] of Object.entries<any>(ops)) {
                assert.ok(
                  op.description.startsWith(op.summary.replace(/\.$/, '')),
                  `${app} ${method} ${path}: the description starts with the summary`,
                );
                for (const tag of op.tags)
                  assert.ok(declared.get(tag), `${app} ${method} ${path}: tag "${tag}" is declared with a description`);
              }
            }
          }
        },
      );
    });
  }

  it('reports what the documents must keep: servers, contact, operation descriptions, tag descriptions', async () => {
    const doc = structuredClone((await servedDocuments(testConfig())).admin) as any;
    delete doc.servers;
    delete doc.info.contact;
    delete doc.paths['/auth/me'].get.description;
    delete doc.tags[0].description;
    const found = (await lintApiDocument(doc)).filter(isFailure).map((f) => `${f.code} ${f.path}`);
    assert.deepEqual(
      found.sort(),
      ['info-contact info', 'oas3-api-servers ', 'operation-description paths./auth/me.get', 'tag-description tags.0'].sort(),
    );
  });

  it('takes servers from svc.security.sign.public-urls when it is set', async () => {
    const docs = (await servedDocuments(
      testConfig({ 'svc.security.sign.public-urls': { admin: 'https://admin.example.com/', web: 'https://api.example.com/shop' } }),
    )) as Record<AppName, any>;
    assert.deepEqual(
      docs.admin.servers.map((s: any) => s.url),
      ['https://admin.example.com'],
    );
    assert.deepEqual(
      docs.web.servers.map((s: any) => s.url),
      ['https://api.example.com/shop'],
    );
    for (const app of APP_NAMES) assert.deepEqual((await lintApiDocument(docs[app])).filter(isFailure), []);
  });

  it('takes info.contact from svc.openapi.contact-*', async () => {
    const docs = (await servedDocuments(
      testConfig({
        'svc.openapi.contact-name': 'Platform team',
        'svc.openapi.contact-url': 'https://support.example.com',
        'svc.openapi.contact-email': 'api@example.com',
      }),
    )) as Record<AppName, any>;
    for (const app of APP_NAMES)
      assert.deepEqual(docs[app].info.contact, { name: 'Platform team', url: 'https://support.example.com', email: 'api@example.com' });
  });
});
