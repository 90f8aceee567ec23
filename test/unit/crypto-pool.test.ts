import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import { PooledBcryptHasher } from '../../src/adapters/crypto/bcrypt-hasher';
import { generateEphemeralRsaKey, NodeRsaDecryptor } from '../../src/adapters/crypto/rsa';
import { CryptoWorkerPool } from '../../src/adapters/crypto/worker-pool';
import { isDomainError } from '../../src/domain/errors';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const JSEncrypt = require('jsencrypt') as new () => { setPublicKey(pem: string): void; encrypt(s: string): string | false };

describe('crypto worker pool (BCrypt, PKCS#1 RSA off the event loop)', function () {
  this.timeout(20000);
  let pool: CryptoWorkerPool;
  before(() => {
    pool = new CryptoWorkerPool(2);
  });
  after(() => pool.close());

  it('hashes and verifies with bcryptjs; malformed hashes verify false', async () => {
    const h = new PooledBcryptHasher(pool);
    const hash = await h.hash('pässwörd', 10);
    assert.match(hash, /^\$2b\$10\$/);
    assert.equal(await h.verify('pässwörd', hash), true);
    assert.equal(await h.verify('password', hash), false);
    assert.equal(await h.verify('x', 'not-a-hash'), false);
  });

  it('keeps serving after a worker reports an error', async () => {
    await assert.rejects(pool.run({ op: 'rsa-pkcs1', keyPem: 'garbage', ciphertext: 'AA==' }));
    assert.equal(typeof (await pool.run<string>({ op: 'hash', password: 'x', cost: 4 })), 'string');
  });

  it('sheds load once its bounded queue is full: server-busy (503) at once, the queued work still completes', async () => {
    const small = new CryptoWorkerPool(1, undefined, 2); // 1 worker, at most 2 waiting
    try {
      const h = new PooledBcryptHasher(small);
      const hash = await h.hash('pw', 8);
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => h.verify('pw', hash)));
      const busy = results.filter((r) => r.status === 'rejected' && isDomainError(r.reason) && r.reason.reason === 'server-busy');
      const done = results.filter((r) => r.status === 'fulfilled' && r.value === true);
      assert.equal(done.length, 3, 'one running + two queued');
      assert.equal(busy.length, 3);
      assert.equal(await h.verify('pw', hash), true, 'accepts work again once the queue drains');
    } finally {
      await small.close();
    }
  });

  it('rejects work after close', async () => {
    const p = new CryptoWorkerPool(1);
    await p.close();
    await assert.rejects(p.run({ op: 'hash', password: 'x', cost: 4 }), /closed/);
  });

  describe('NodeRsaDecryptor', () => {
    const key = generateEphemeralRsaKey();
    it('oaep-sha256: decrypts UTF-8; refuses PKCS#1 ciphertexts, garbage and wrong lengths', async () => {
      const d = new NodeRsaDecryptor(key, 'oaep-sha256', pool);
      const ct = publicEncrypt(
        { key: d.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from('密码-€'),
      ).toString('base64');
      assert.equal(await d.decrypt(ct), '密码-€');
      const j = new JSEncrypt();
      j.setPublicKey(d.publicKeyPem);
      assert.equal(await d.decrypt(j.encrypt('secret') as string), null);
      assert.equal(await d.decrypt('!!!'), null);
      assert.equal(await d.decrypt('AAAA'), null);
    });
    it('pkcs1 (node-rsa on the pool): decrypts JSEncrypt encrypt() output, UTF-8 included', async () => {
      const d = new NodeRsaDecryptor(key, 'pkcs1', pool);
      const j = new JSEncrypt();
      j.setPublicKey(d.publicKeyPem);
      assert.equal(await d.decrypt(j.encrypt('pässwörd-€') as string), 'pässwörd-€');
      const oaep = publicEncrypt(
        { key: d.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from('x'),
      ).toString('base64');
      assert.equal(await d.decrypt(oaep), null);
    });
  });
});
