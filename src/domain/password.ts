/** Password and account-name rules the use cases and adapters share (BCrypt limits, ASVS 6.2). */

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

/** Password rules (ASVS 6.2): 8-64 characters and at most 72 UTF-8 bytes (BCrypt's limit; never truncated). */
export function passwordProblem(password: string): string | null {
  const chars = [...password].length;
  if (chars < 8) return 'must be at least 8 characters';
  if (chars > 64) return 'must be at most 64 characters';
  if (utf8Length(password) > BCRYPT_MAX_BYTES) return 'must be at most 72 bytes in UTF-8 (BCrypt reads no further)';
  return null;
}
