import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { CONFIG_KEYS, envNameOf } from '../../src/main/config';
import { REASONS } from '../../src/domain/errors';

const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

describe('README stays in step with the code', () => {
  it('documents every configuration key with its environment variable', () => {
    for (const key of CONFIG_KEYS) {
      assert.ok(readme.includes(`| \`${key}\` | \`${envNameOf(key)}\``), `README lacks config key ${key}`);
    }
  });
  it('documents every error reason with its status and admin code', () => {
    for (const reason of REASONS) {
      const e = ERROR_CATALOGUE[reason];
      assert.ok(readme.includes(`| \`${reason}\` | ${e.status} | ${e.code} |`), `README lacks reason ${reason}`);
    }
  });
  it('admin codes are unique and never 0', () => {
    const codes = Object.values(ERROR_CATALOGUE).map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    assert.ok(!codes.includes(0));
  });
});
