'use strict';
/**
 * Worker thread entry of the crypto pool: BCrypt (bcryptjs) and node-rsa's constant-time
 * PKCS#1 v1.5 decryption, which take ~100 ms and ~35 ms of CPU and must not run on the event loop.
 *
 * Plain CommonJS on purpose: a Worker cannot load a .ts file without a loader, and this file is
 * copied unchanged to dist/ by `npm run build`, so it runs the same under tsx and from dist/.
 * Messages: {id, op: 'hash'|'verify'|'rsa-pkcs1', ...} -> {id, ok, result | error}.
 */
const { parentPort } = require('node:worker_threads');
const bcrypt = require('bcryptjs');
const NodeRSA = require('node-rsa').default;

/** Parsed node-rsa keys by PEM (a pool serves one key in practice; bounded anyway). */
const keys = new Map();

function rsaKey(pem) {
  let key = keys.get(pem);
  if (key === undefined) {
    key = new NodeRSA();
    key.importKey(pem, 'pkcs8-private-pem');
    key.setOptions({ encryptionScheme: 'pkcs1' });
    if (keys.size >= 4) keys.clear();
    keys.set(pem, key);
  }
  return key;
}

function run(msg) {
  switch (msg.op) {
    case 'hash':
      return bcrypt.hashSync(msg.password, msg.cost);
    case 'verify':
      try {
        return bcrypt.compareSync(msg.password, msg.hash);
      } catch {
        return false;
      }
    case 'rsa-pkcs1':
      // Returns the plaintext bytes; the caller decodes UTF-8 strictly.
      return Buffer.from(rsaKey(msg.keyPem).decrypt(Buffer.from(msg.ciphertext, 'base64'))).toString('base64');
    default:
      throw new Error(`unknown op ${msg.op}`);
  }
}

parentPort.on('message', (msg) => {
  try {
    parentPort.postMessage({ id: msg.id, ok: true, result: run(msg) });
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: e && e.message ? String(e.message) : String(e) });
  }
});
