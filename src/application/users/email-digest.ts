/**
 * What stands for an e-mail address in store keys and rate-limit counters: a digest of its folded
 * form (`foldEmail`), so `Ann@Example.org` and `ann@example.org` count as one, and no address is
 * stored or logged in clear.
 */
import { createHash } from 'node:crypto';
import { foldEmail } from '../ports/account-store';

export function emailDigest(email: string): string {
  return createHash('sha256')
    .update(`authguard-email\n${foldEmail(email)}`, 'utf8')
    .digest('base64url');
}

/** SHA-256 of a secret (a code or a token) as hex: the only form in which one is stored. */
export function secretDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
