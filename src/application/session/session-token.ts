/**
 * Session tokens: generated in the configured style, stored only as their SHA-256, shown to
 * users and admins as a short token id derived from that hash.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { TokenStyle } from '../../domain/session';

/**
 * The token hash runs once per authenticated request: the one-shot crypto.hash (Node >= 20.12)
 * avoids building a Hash object. Older Node (engines says >= 20.12, but npm does not enforce it)
 * gets the Hash object.
 */
const sha256Hex: (s: string) => string =
  typeof (nodeCrypto as { hash?: unknown }).hash === 'function'
    ? (s) => nodeCrypto.hash('sha256', s, 'hex')
    : (s) => createHash('sha256').update(s, 'utf8').digest('hex');

export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Whether two token hashes (hex SHA-256) are equal, compared in constant time on equal-length buffers. */
export function sameTokenHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/**
 * Short, non-secret session identifier shown to users and admins: the first 32 hex digits (128 bits) of
 * the token hash, which also name the session's key in a store (so no index maps one to the other).
 * Sessions of releases before it keep the 16-digit id they were given (TOKEN_ID_PATTERN takes both).
 */
export function tokenIdOf(tokenHash: string): string {
  return tokenHash.slice(0, 32);
}

/** A token id: 32 hex digits, or the 16 of a session logged in before token ids grew. */
export const TOKEN_ID_PATTERN = /^(?:[0-9a-f]{16}|[0-9a-f]{32})$/;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Writes `bytes` in the token style; random-64 draws more bytes from `more` if needed. */
export function formatToken(style: TokenStyle, bytes: Buffer, more: () => Buffer = () => randomBytes(64)): string {
  switch (style) {
    case 'uuid': {
      const b = Buffer.from(bytes.subarray(0, 16));
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    }
    case 'simple-uuid':
      return formatToken('uuid', bytes).replace(/-/g, '');
    case 'random-64': {
      // 64 characters from 62 symbols; rejection sampling keeps the distribution uniform.
      let out = '';
      let pool = bytes;
      let i = 0;
      while (out.length < 64) {
        if (i >= pool.length) {
          pool = more();
          i = 0;
        }
        const v = pool[i++] as number;
        if (v < 248) out += ALNUM[v % 62];
      }
      return out;
    }
  }
}

export function generateToken(style: TokenStyle): string {
  return style === 'uuid' ? randomUUID() : formatToken(style, randomBytes(style === 'random-64' ? 96 : 16));
}
