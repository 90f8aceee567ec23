import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { InMemoryUserDirectory } from '../../src/adapters/directory/in-memory-user-directory';
import { YamlFileUserDirectory } from '../../src/adapters/directory/yaml-file-user-directory';

const HASH = '$2b$10$Q/9ggkjQhcIyAAxeXMC45O1psYNXbvhOr95w2VKtNWJsryJmN5sym';

function file(text: string): string {
  const f = path.join(mkdtempSync(path.join(tmpdir(), 'agusers-')), 'users.yml');
  writeFileSync(f, text);
  return f;
}

describe('embedded user directory (YAML)', () => {
  it('the repository seeds: admin (*:*:*) and viewer, with BCrypt hashes', async () => {
    const d = InMemoryUserDirectory.fromFile(path.join(__dirname, '../../config/users.yml'));
    const admin = await d.findByUsername('admin');
    assert.deepEqual(admin?.permissions, ['*:*:*']);
    assert.deepEqual((await d.findByUsername('viewer'))?.permissions, ['system:user:list', 'monitor:online:list']);
    assert.equal((await d.findById('2'))?.username, 'viewer');
    assert.equal(await d.findByUsername('nobody'), null);
  });

  it('the member seed: alice / alice-pass-123 (BCrypt), no roles, no admin accounts', async () => {
    const d = InMemoryUserDirectory.fromFile(path.join(__dirname, '../../config/members.yml'));
    const alice = await d.findByUsername('alice');
    assert.ok(alice);
    assert.equal(alice.id, '1');
    assert.deepEqual([alice.roles, alice.permissions], [[], []]);
    assert.ok(await bcrypt.compare('alice-pass-123', alice.passwordHash));
    assert.deepEqual([alice.email, alice.emailVerified], ['alice@example.com', true]);
    assert.equal((await d.findByEmail('Alice@Example.com'))?.id, '1');
    assert.equal(await d.findByUsername('admin'), null);
    assert.equal((await d.list(0, 100)).total, 1);
  });

  it('refuses plaintext passwords, unknown roles and unknown fields, naming the file', () => {
    assert.throws(() => InMemoryUserDirectory.fromFile(file('users:\n  - {id: 1, username: a, password: admin123}\n')), /BCrypt hash/);
    assert.throws(
      () => InMemoryUserDirectory.fromFile(file(`users:\n  - {id: 1, username: a, password: '${HASH}', roles: [ghost]}\n`)),
      /unknown role/,
    );
    assert.throws(
      () => InMemoryUserDirectory.fromFile(file(`users:\n  - {id: 1, username: a, password: '${HASH}', plain: x}\n`)),
      /users\.yml/,
    );
  });

  it('refuses a file listing two names that differ only in case or Unicode form, naming the file and both names', async () => {
    const f = file(
      `users:\n  - {id: 1, username: alice, password: '${HASH}'}\n  - {id: 2, username: bob, ` +
        `password: '${HASH}'}\n  - {id: 3, username: Alice, password: '${HASH}'}\n`,
    );
    assert.throws(
      () => InMemoryUserDirectory.fromFile(f),
      (e: Error) => e.message.startsWith(`${f}: `) && /"alice" \(id 1\) and "Alice" \(id 3\) differ only in case/.test(e.message),
    );
    await assert.rejects(
      new YamlFileUserDirectory(f).findByUsername('bob'),
      /"alice" \(id 1\) and "Alice" \(id 3\)/,
      'the CLI refuses to read it too',
    );
    const fullwidth = file(
      `users:\n  - {id: 1, username: bob, password: '${HASH}'}\n  - {id: 2, username: "\\uFF42\\uFF4F\\uFF42", password: '${HASH}'}\n`,
    );
    assert.throws(
      () => InMemoryUserDirectory.fromFile(fullwidth),
      /"bob" \(id 1\) and "ｂｏｂ" \(id 2\) differ only in case or Unicode form/,
    );
    const twice = file(`users:\n  - {id: 1, username: bob, password: '${HASH}'}\n  - {id: 2, username: bob, password: '${HASH}'}\n`);
    assert.throws(() => InMemoryUserDirectory.fromFile(twice), /user "bob" \(id 2\) is listed twice/);
  });

  it("the CLI's file directory refuses a name taken in another case and writes nothing", async () => {
    const f = file(`users:\n  - {id: 1, username: viewer, password: '${HASH}'}\n`);
    const before = readFileSync(f, 'utf8');
    const r = await new YamlFileUserDirectory(f).create({ username: 'Viewer', passwordHash: HASH, nickname: 'V', roles: [] });
    assert.equal(!r.ok && r.reason, 'username-taken');
    assert.equal(readFileSync(f, 'utf8'), before);
    assert.equal((await new YamlFileUserDirectory(f).findByUsername('VIEWER'))?.username, 'viewer');
  });

  it('create: new ids, role permissions, taken usernames and unknown roles are values', async () => {
    const d = InMemoryUserDirectory.fromFile(
      file(`roles: {r: ['a:b:c']}\nusers:\n  - {id: 7, username: a, password: '${HASH}', roles: [r]}\n`),
    );
    const ok = await d.create({ username: 'b', passwordHash: HASH, nickname: 'B', roles: ['r'] });
    assert.ok(ok.ok);
    assert.equal(ok.user.id, '8');
    assert.deepEqual(ok.user.permissions, ['a:b:c']);
    assert.deepEqual(await d.create({ username: 'b', passwordHash: HASH, nickname: 'B', roles: ['r'] }), {
      ok: false,
      reason: 'username-taken',
      detail: 'taken',
    });
    const bad = await d.create({ username: 'c', passwordHash: HASH, nickname: 'C', roles: ['nope'] });
    assert.equal(bad.ok, false);
    assert.equal((await d.list(0, 10)).total, 2, 'nothing half-written');
  });

  it('e-mail addresses in the file: optional, trimmed, unverified unless emailVerified, unique whatever their case', async () => {
    const d = InMemoryUserDirectory.fromFile(
      file(
        `users:\n  - {id: 1, username: a, password: '${HASH}', email: ' A@Example.test ', emailVerified: true}\n` +
          `  - {id: 2, username: b, password: '${HASH}', email: b@example.test}\n  - {id: 3, username: c, password: '${HASH}'}\n`,
      ),
    );
    const a = await d.findByUsername('a');
    assert.deepEqual([a?.email, a?.emailVerified], ['A@Example.test', true]);
    const b = await d.findByEmail('B@EXAMPLE.TEST');
    assert.deepEqual([b?.username, b?.emailVerified], ['b', false]);
    const c = await d.findByUsername('c');
    assert.deepEqual([c?.email, c?.emailVerified], [null, false]);
    assert.throws(
      () =>
        InMemoryUserDirectory.fromFile(
          file(
            `users:\n  - {id: 1, username: a, password: '${HASH}', email: x@y.test}\n` +
              `  - {id: 2, username: b, password: '${HASH}', email: X@Y.test}\n`,
          ),
        ),
      /users\.yml: users of id 1 and 2 have the same e-mail address/,
    );
    assert.throws(
      () => InMemoryUserDirectory.fromFile(file(`users:\n  - {id: 1, username: a, password: '${HASH}', emailVerified: true}\n`)),
      /emailVerified needs an email/,
    );
  });

  it("the CLI's file directory writes a new account's e-mail address into the file", async () => {
    const f = file(`users:\n  - {id: 1, username: viewer, password: '${HASH}'}\n`);
    const r = await new YamlFileUserDirectory(f).create({
      username: 'mailer',
      passwordHash: HASH,
      nickname: 'M',
      roles: [],
      email: 'M@x.test',
    });
    assert.ok(r.ok);
    assert.match(readFileSync(f, 'utf8'), /email: M@x\.test/);
    assert.equal((await InMemoryUserDirectory.fromFile(f).findByEmail('m@x.test'))?.username, 'mailer');
  });
});
