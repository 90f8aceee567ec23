/**
 * RSA for the admin login password. `oaep-sha256`: Node's privateDecrypt with a parsed KeyObject
 * (native, ~0.5 ms). `pkcs1`: node-rsa's constant-time JavaScript PKCS#1 v1.5 decoder on the
 * worker pool (~35 ms of CPU). Never Node's RSA_PKCS1_PADDING (Marvin, CVE-2023-46809), never
 * both paddings by trial.
 */
import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  type KeyObject,
} from 'node:crypto';
import type { RsaDecryptor, RsaPadding } from '../../application/ports/rsa-decryptor';
import type { CryptoWorkerPool } from './worker-pool';

export const MIN_RSA_BITS = 2048;

/** Parses PEM (PKCS#8 or PKCS#1, `\n` escapes allowed) or base64 DER; throws a message naming the problem. */
export function parseRsaPrivateKey(text: string): KeyObject {
  const s = text.trim().replace(/\\n/g, '\n');
  let key: KeyObject | undefined;
  if (s.includes('-----BEGIN')) {
    try {
      key = createPrivateKey({ key: s, format: 'pem' });
    } catch {
      throw new Error('not a readable PEM private key (PKCS#8 "PRIVATE KEY" or PKCS#1 "RSA PRIVATE KEY", unencrypted)');
    }
  } else {
    const compact = s.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new Error('expected PEM or base64 DER');
    const der = Buffer.from(compact, 'base64');
    for (const type of ['pkcs8', 'pkcs1'] as const) {
      try {
        key = createPrivateKey({ key: der, format: 'der', type });
        break;
      } catch {
        /* try the next encoding */
      }
    }
    if (key === undefined) throw new Error('base64 DER that is neither PKCS#8 nor PKCS#1');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new Error(`expected an RSA key, got ${key.asymmetricKeyType ?? 'unknown'}`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new Error(`the key has ${bits} bits; at least ${MIN_RSA_BITS} are required`);
  return key;
}

export function generateEphemeralRsaKey(): KeyObject {
  return generateKeyPairSync('rsa', { modulusLength: MIN_RSA_BITS }).privateKey;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class NodeRsaDecryptor implements RsaDecryptor {
  readonly publicKeyPem: string;
  private readonly pkcs8Pem: string;
  private readonly modulusBytes: number;

  constructor(
    private readonly key: KeyObject,
    readonly padding: RsaPadding,
    private readonly pool: CryptoWorkerPool,
  ) {
    this.publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
    this.pkcs8Pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.modulusBytes = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 0) / 8);
  }

  async decrypt(ciphertextBase64: string): Promise<string | null> {
    const b64 = ciphertextBase64.replace(/\s+/g, '');
    if (!BASE64.test(b64)) return null;
    const ct = Buffer.from(b64, 'base64');
    if (ct.length !== this.modulusBytes) return null;
    let plain: Buffer;
    try {
      if (this.padding === 'oaep-sha256') {
        plain = privateDecrypt({ key: this.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ct);
      } else {
        plain = Buffer.from(await this.pool.run<string>({ op: 'rsa-pkcs1', keyPem: this.pkcs8Pem, ciphertext: b64 }), 'base64');
      }
      return utf8.decode(plain);
    } catch {
      return null;
    }
  }
}

/**
 * The web app's decryptor: it has no RSA layer (members send plain passwords over TLS), so
 * nothing decrypts. Use cases only reach it with `encrypted: true`, which the web app never sends;
 * should one ever do so, the password counts as undecryptable (401 bad-credentials, like admin).
 */
export class NoRsaDecryptor implements RsaDecryptor {
  readonly publicKeyPem = '';
  readonly padding: RsaPadding = 'oaep-sha256';
  async decrypt(): Promise<string | null> {
    return null;
  }
}

export const RSA_KEY_SIZES = [2048, 3072] as const;

/** A new RSA key pair as PEM: private PKCS#8 (what svc.rsa-private-key takes), public SPKI. */
export function generateRsaKeyPairPem(bits: (typeof RSA_KEY_SIZES)[number]): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * What a client sends as the login password: the UTF-8 bytes encrypted with the server's public
 * key, base64. `oaep-sha256` as WebCrypto RSA-OAEP/SHA-256 or JSEncrypt encryptOAEP; `pkcs1` as
 * JSEncrypt encrypt() (encrypting with v1.5 padding is fine; only decrypting it needs care).
 * `key` is a PEM public key (SPKI or PKCS#1) or a private key, whose public half is used.
 */
export function encryptForLogin(key: string, padding: RsaPadding, text: string): string {
  const publicKey = createPublicKey(key.trim().replace(/\\n/g, '\n'));
  if (publicKey.asymmetricKeyType !== 'rsa') throw new Error(`expected an RSA key, got ${publicKey.asymmetricKeyType ?? 'unknown'}`);
  const opts =
    padding === 'oaep-sha256'
      ? { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }
      : { key: publicKey, padding: constants.RSA_PKCS1_PADDING };
  return publicEncrypt(opts, Buffer.from(text, 'utf8')).toString('base64');
}
