/**
 * The openapi-fetch snippet of docs/integration-third-party.md ("Generate your client") compiles against the
 * committed clients/web.d.ts, as an integrator's project would compile it (ES modules, top-level await).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.join(__dirname, '../..');
const doc = readFileSync(path.join(root, 'docs/integration-third-party.md'), 'utf8');

/** The TypeScript diagnostics of `source` as `snippet.ts` beside `generated/web.d.ts` (the committed declarations). */
function compile(source: string): string[] {
  // Inside the repository, so that openapi-fetch resolves from its node_modules.
  const dir = mkdtempSync(path.join(root, '.snippet-'));
  try {
    mkdirSync(path.join(dir, 'generated'));
    copyFileSync(path.join(root, 'clients/web.d.ts'), path.join(dir, 'generated/web.d.ts'));
    const file = path.join(dir, 'snippet.ts');
    writeFileSync(file, `${source}\nexport {};\n`);
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts'],
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    });
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docs/integration-third-party.md: the typed-client snippet compiles against clients/web.d.ts', function () {
  this.timeout(60_000);
  const m = /<!-- snippet: typed-client -->\n```ts\n([\s\S]*?)\n```/.exec(doc);

  it('compiles', () => {
    assert.ok(m?.[1], 'the snippet "typed-client" is missing');
    assert.deepEqual(compile(m[1]), []);
  });

  it('a wrong body or a missing idempotency header does not (the check is real)', () => {
    assert.ok(m?.[1]);
    const wrong = compile(m[1].replace('quantity: 2 }', "quantity: '2' }").replace("'X-Idempotent-Token'", "'X-Other'"));
    assert.equal(wrong.length, 2, wrong.join('\n'));
    assert.ok(
      wrong.some((e) => e.includes("'X-Other'")),
      wrong.join('\n'),
    );
    assert.ok(
      wrong.some((e) => e.includes("not assignable to type 'number'")),
      wrong.join('\n'),
    );
  });
});
