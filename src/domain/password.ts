/** Password and account-name rules the use cases and adapters share (BCrypt limits, ASVS 6.2). */
import { foldUsername } from './username';

/** A BCrypt hash: `$2a$` / `$2b$` / `$2y$`, a two-digit cost, 53 characters of salt and digest. */
const BCRYPT_HASH = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

export function isBcryptHash(s: string): boolean {
  return BCRYPT_HASH.test(s);
}

/** BCrypt reads at most 72 bytes of the password; longer ones are refused, never truncated. */
export const BCRYPT_MAX_BYTES = 72;

/** UTF-8 length of a password (what BCrypt's byte limit counts). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;

export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 64;

/**
 * Every rule of the password policy that `password` breaks on its own (the common list and the
 * history are the application's): 8-64 characters, at most 72 UTF-8 bytes (BCrypt's limit; never
 * truncated), and not the username, compared as typed and folded (`foldUsername`: NFKC, lower case)
 * on both sides. One detail a rule, in the policy's order; empty when none is broken. No composition rules.
 */
export function passwordPolicyProblems(password: string, username: string): string[] {
  const problems: string[] = [];
  const chars = [...password].length;
  if (chars < PASSWORD_MIN_CHARS) problems.push(`must be at least ${PASSWORD_MIN_CHARS} characters`);
  if (chars > PASSWORD_MAX_CHARS) problems.push(`must be at most ${PASSWORD_MAX_CHARS} characters`);
  if (utf8Length(password) > BCRYPT_MAX_BYTES) problems.push('must be at most 72 bytes in UTF-8 (BCrypt reads no further)');
  if (password === username || foldUsername(password) === foldUsername(username)) problems.push('must not be the username');
  return problems;
}
