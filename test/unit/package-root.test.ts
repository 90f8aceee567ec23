import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/adapters/package-root';
import { DEFAULT_CONFIG_DIR } from '../../src/main/config';

describe('package root (config/, db/, package.json found from any build layout)', () => {
  it('is the directory of our package.json, holding config/ and db/migrations', () => {
    const root = packageRoot();
    assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name, 'authguard');
    assert.equal(DEFAULT_CONFIG_DIR, path.join(root, 'config'));
    assert.ok(fs.existsSync(path.join(root, 'config', 'application.yml')));
    assert.ok(fs.existsSync(path.join(root, 'db', 'migrations')));
  });

  it('is found from a compiled copy nested deeper than dist/ (the benchmark build)', function () {
    this.timeout(60_000);
    const root = packageRoot();
    const out = fs.mkdtempSync(path.join(root, 'bench', '.build-test-'));
    try {
      execFileSync(
        process.execPath,
        [
          require.resolve('typescript/bin/tsc'),
          path.join(root, 'src/adapters/package-root.ts'),
          '--outDir',
          path.join(out, 'deep', 'er'),
          '--module',
          'commonjs',
          '--target',
          'ES2022',
          '--types',
          'node',
          '--skipLibCheck',
          '--esModuleInterop',
        ],
        { cwd: root },
      );
      const found = execFileSync(process.execPath, [
        '-e',
        `process.stdout.write(require(${JSON.stringify(path.join(out, 'deep', 'er', 'package-root.js'))}).packageRoot())`,
      ]).toString();
      assert.equal(found, root);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
