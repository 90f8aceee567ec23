/** Second-factor secrets at rest: AES-256-GCM under the current key, the previous key still read (rotation). */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { parseEncryptionKey, SecretBox } from '../../src/application/mfa/secret-box';

const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const CONTEXT = 'totp:admin:7';

describe('SecretBox (AES-256-GCM, key rotation)', () => {
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];

  it('round trip: what is sealed opens under the same key and context, and is not the plaintext', () => {
    const box = new SecretBox([newKey]);
    const sealed = box.seal(SECRET, CONTEXT);
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.ok(!sealed.includes(SECRET));
    assert.ok(
      !Buffer.from(sealed.split('.')[2] ?? '', 'base64url')
        .toString('latin1')
        .includes(SECRET),
    );
    assert.deepEqual(box.open(sealed, CONTEXT), { plaintext: SECRET, stale: false });
  });

  it('a fresh IV each time: the same secret seals differently', () => {
    const box = new SecretBox([newKey]);
    assert.notEqual(box.seal(SECRET, CONTEXT), box.seal(SECRET, CONTEXT));
  });

  it('rotation: a value sealed under the old key opens when it is the previous key, marked stale; new values use the new key', () => {
    const sealedOld = new SecretBox([oldKey]).seal(SECRET, CONTEXT);
    const rotated = new SecretBox([newKey, oldKey]);
    assert.deepEqual(rotated.open(sealedOld, CONTEXT), { plaintext: SECRET, stale: true });
    const sealedNew = rotated.seal(SECRET, CONTEXT);
    assert.deepEqual(new SecretBox([newKey]).open(sealedNew, CONTEXT), { plaintext: SECRET, stale: false });
    assert.equal(new SecretBox([oldKey]).open(sealedNew, CONTEXT), null, 'sealed under the current key, not the previous');
  });

  it('another key, another context, a flipped bit or junk: null', () => {
    const box = new SecretBox([newKey]);
    const sealed = box.seal(SECRET, CONTEXT);
    assert.equal(new SecretBox([oldKey]).open(sealed, CONTEXT), null);
    assert.equal(box.open(sealed, 'totp:admin:8'), null, 'copied to another account');
    assert.equal(box.open(sealed, 'totp:web:7'), null, 'copied to the other login type');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    assert.equal(box.open([parts[0], parts[1], body.toString('base64url'), parts[3]].join('.'), CONTEXT), null);
    for (const junk of ['', 'v1', 'v2.aaaa.bbbb.cccc', SECRET]) assert.equal(box.open(junk, CONTEXT), null);
  });

  it('without a key nothing can be sealed or opened', () => {
    const none = new SecretBox([]);
    assert.equal(none.available, false);
    assert.throws(() => none.seal(SECRET, CONTEXT), /svc\.mfa\.encryption-key/);
    assert.equal(none.open(new SecretBox([newKey]).seal(SECRET, CONTEXT), CONTEXT), null);
    assert.throws(() => new SecretBox([randomBytes(16)]), /32 bytes/);
  });

  it('keys are 64 hex characters or base64 / base64url of 32 bytes', () => {
    const key = randomBytes(32);
    for (const text of [key.toString('hex'), key.toString('hex').toUpperCase(), key.toString('base64'), key.toString('base64url')])
      assert.deepEqual(parseEncryptionKey(` ${text} `), key, text);
    for (const bad of ['', 'short', randomBytes(31).toString('hex'), randomBytes(33).toString('base64'), 'z'.repeat(64)])
      assert.equal(parseEncryptionKey(bad), null, bad);
  });
});
