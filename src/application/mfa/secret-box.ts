/**
 * Second-factor secrets at rest: AES-256-GCM under `svc.mfa.encryption-key`, with the previous key still read
 * (rotation, as with the device-cookie key: decrypt with either, encrypt with the current one).
 *
 * A sealed value is `v1.<iv>.<ciphertext>.<tag>` (base64url; a 96-bit random IV per value, a 128-bit tag). The
 * context (login type and user id) is GCM's additional data: a value copied to another account does not open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;
const SEALED = /^v1\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]{22})$/;

/**
 * A configured key as bytes: 64 hex characters, or base64 / base64url of 32 bytes; null when it is neither
 * (the configuration names the key and refuses to start).
 */
export function parseEncryptionKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) return null;
  const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === KEY_BYTES ? bytes : null;
}

/** What `open` found: the plaintext, and whether it was sealed under a key other than the current one. */
export interface Opened {
  readonly plaintext: string;
  /** Sealed under the previous key: seal it again under the current one when convenient. */
  readonly stale: boolean;
}

export class SecretBox {
  private readonly keys: readonly Buffer[];

  /** `keys`: the current key first, then the previous one; none when no key is configured (nothing can be sealed). */
  constructor(keys: readonly Buffer[]) {
    for (const k of keys) if (k.length !== KEY_BYTES) throw new Error(`an AES-256 key is ${KEY_BYTES} bytes, not ${k.length}`);
    this.keys = keys;
  }

  /** Whether a key is configured. */
  get available(): boolean {
    return this.keys.length > 0;
  }

  /** Encrypts under the current key, bound to `context`. */
  seal(plaintext: string, context: string): string {
    const key = this.keys[0];
    if (key === undefined) throw new Error('no encryption key (svc.mfa.encryption-key)');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, body, cipher.getAuthTag()].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** The plaintext, when one of the keys opens it under `context`; null when none does (tampered, another key, another account). */
  open(sealed: string, context: string): Opened | null {
    const m = SEALED.exec(sealed);
    if (m === null) return null;
    const [iv, body, tag] = [m[1], m[2], m[3]].map((p) => Buffer.from(p ?? '', 'base64url')) as [Buffer, Buffer, Buffer];
    for (const [index, key] of this.keys.entries()) {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        const plaintext = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
        return { plaintext, stale: index > 0 };
      } catch {
        // Not this key (or tampered): GCM's tag check failed; try the next.
      }
    }
    return null;
  }
}
