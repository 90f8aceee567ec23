/** BCrypt facts the use cases and adapters share. */

/** A BCrypt hash: `$2a$` / `$2b$` / `$2y$`, a two-digit cost, 53 characters of salt and digest. */
const BCRYPT_HASH = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

export function isBcryptHash(s: string): boolean {
  return BCRYPT_HASH.test(s);
}

/** BCrypt reads at most 72 bytes of the password; longer ones are refused, never truncated. */
export const BCRYPT_MAX_BYTES = 72;
