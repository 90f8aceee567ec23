/**
 * The committed typed-client declarations (clients/admin.d.ts, clients/web.d.ts) are exactly what
 * openapi-typescript generates from the documents the apps serve now: a route, a body or a payload schema that
 * changes without `npm run gen:clients` fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { OpenAPI3 } from 'openapi-typescript';
import { APP_NAMES, clientFile, declarationsFor, documentFile, documentText, driftOf, liveDocuments } from '../../scripts/client-types';

describe('generated clients (clients/*.d.ts) match the live documents', function () {
  this.timeout(30_000);
  let docs: Awaited<ReturnType<typeof liveDocuments>>;
  before(async () => {
    docs = await liveDocuments();
  });

  for (const app of APP_NAMES) {
    it(`clients/${app}.d.ts is what GET /v3/api-docs of the ${app} app generates`, async () => {
      const file = clientFile(app);
      const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      const drift = driftOf(app, committed, await declarationsFor(app, structuredClone(docs[app])));
      assert.equal(drift, undefined, drift);
    });
  }

  for (const app of APP_NAMES) {
    it(
      `the ${app} app serves byte for byte the committed clients/${app}.openapi.json ` + `(refactorings leave the API document unchanged)`,
      () => {
        const file = documentFile(app);
        const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
        const drift = driftOf(app, committed, documentText(docs[app]), `clients/${app}.openapi.json`);
        assert.equal(drift, undefined, drift);
      },
    );
  }

  it('a change of the document is a drift, reported with its first line and the remedy', async () => {
    const committed = readFileSync(clientFile('web'), 'utf8');
    const changed = structuredClone(docs.web) as OpenAPI3 & { paths: Record<string, unknown> };
    changed.paths['/orders/{id}'] = { get: { operationId: 'getOrder', responses: { '200': { description: 'an order' } } } };
    const drift = driftOf('web', committed, await declarationsFor('web', changed));
    assert.ok(drift, 'the new path changes the declarations');
    assert.match(drift, /clients\/web\.d\.ts differs .* from line \d+:/);
    assert.match(drift, /generated: .*\/orders\/\{id\}/);
    assert.match(drift, /run npm run gen:clients/);
    assert.match(driftOf('admin', undefined, 'x') ?? '', /clients\/admin\.d\.ts is missing: run npm run gen:clients/);
  });
});
