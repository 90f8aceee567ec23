/**
 * Recovery codes: single-use codes that stand in for a TOTP code when the authenticator is lost. Each is 80 random
 * bits written as four groups of four characters of Crockford's base32 (`7k2m-x9qd-...`: no i, l, o or u), so a
 * stolen table of their SHA-256 hashes cannot be walked back to codes; the hash covers the account too. Typing
 * is forgiving: case, spaces and dashes do not matter, and o / i / l read as 0 / 1 / 1.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LoginType } from '../../domain/login-type';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CHARS = 16;
const GROUP = 4;
export const RECOVERY_CODE_COUNT = 10;

function encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** `count` new codes, as the user is shown them once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = encode(randomBytes((CHARS * 5) / 8));
    return chars.match(new RegExp(`.{${GROUP}}`, 'g'))?.join('-') ?? chars;
  });
}

/** The canonical form of a typed code (16 characters of the alphabet), or null when it cannot be one. */
export function normaliseRecoveryCode(typed: string): string | null {
  const c = typed.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return c.length === CHARS && [...c].every((ch) => ALPHABET.includes(ch)) ? c : null;
}

/** What the store keeps of a code: SHA-256 (hex) over the account and the canonical code. */
export function recoveryCodeHash(loginType: LoginType, userId: string, canonical: string): string {
  return createHash('sha256').update(`authguard-recovery-code\n${loginType}\n${userId}\n${canonical}`).digest('hex');
}
