/**
 * No line of the TypeScript sources is over 140 characters (Prettier wraps code at 140; it leaves comments and
 * strings alone, so this catches those). Generated files (clients/*.d.ts) are not checked.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const LIMIT = 140;

describe('line length', () => {
  it(`no line of src/, test/, bench/ or scripts/ is over ${LIMIT} characters`, () => {
    const root = path.join(__dirname, '../..');
    const files = execFileSync('git', ['ls-files', 'src/*.ts', 'test/*.ts', 'bench/*.ts', 'scripts/*.ts'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f !== '');
    assert.ok(files.length > 100, 'the sources are listed');
    const long: string[] = [];
    for (const file of files) {
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > LIMIT) long.push(`${file}:${i + 1} (${line.length})`);
        });
    }
    assert.deepEqual(long, [], 'wrap these lines (npm run format wraps code; comments and strings by hand)');
  });
});
