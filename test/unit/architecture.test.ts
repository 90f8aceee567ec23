import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.join(__dirname, '../..');

async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import direction (domain <- application <- adapters <- main)', function () {
  this.timeout(30_000);
  it('domain may not import application, adapters, main, Node or frameworks', async () => {
    for (const imp of ['../application/tokens', '../adapters/koa/guards', '../main/config', 'koa', 'ioredis', 'node:crypto']) {
      const msgs = await lint('src/domain/x.ts', `import '${imp}';\nexport const x = 1;\n`);
      assert.ok(
        msgs.some((m) => m.startsWith('no-restricted-imports')),
        `${imp}: ${msgs.join('; ')}`,
      );
    }
  });
  it('application may not import adapters, main, Koa, ioredis or the WebAuthn library', async () => {
    for (const imp of ['../adapters/koa/guards', '../main/config', 'koa', 'ioredis', '@simplewebauthn/server']) {
      const msgs = await lint('src/application/x.ts', `import '${imp}';\nexport const x = 1;\n`);
      assert.ok(
        msgs.some((m) => m.startsWith('no-restricted-imports')),
        `${imp}: ${msgs.join('; ')}`,
      );
    }
  });
  it('adapters may not import main; only main creates the container', async () => {
    assert.ok(
      (await lint('src/adapters/x.ts', `import '../main/config';\nexport const x = 1;\n`)).some((m) =>
        m.startsWith('no-restricted-imports'),
      ),
    );
    assert.ok(
      (await lint('src/adapters/x.ts', `import { Container } from 'inversify';\nexport const c = new Container();\n`)).some((m) =>
        m.startsWith('no-restricted-syntax'),
      ),
    );
  });
  it('the allowed directions pass', async () => {
    assert.deepEqual(
      await lint('src/application/x.ts', `import { DomainError } from '../domain/errors';\nexport const x = DomainError;\n`),
      [],
    );
    assert.deepEqual(await lint('src/main/x.ts', `import { Container } from 'inversify';\nexport const c = new Container();\n`), []);
  });
});
