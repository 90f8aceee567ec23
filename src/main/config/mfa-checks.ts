/** The second-factor keys' rules (svc.mfa.*), each problem naming its key and environment variable. */
import { parseEncryptionKey } from '../../application/mfa/secret-box';
import type { AppConfig } from './app-config';
import { trimmedText } from './declared-rules';
import { named } from './keys';

/**
 * Each set key is 32 bytes (64 hex characters or base64); a previous key only beside a current one; and a prod start
 * whose roles must have a second factor (svc.mfa.required-roles) refuses without the key, since those users could
 * enrol in nothing.
 */
export function mfaChecks(c: AppConfig): string[] {
  const p: string[] = [];
  const current = trimmedText(c, 'svc.mfa.encryption-key');
  const previous = trimmedText(c, 'svc.mfa.previous-encryption-key');
  if (current !== '' && parseEncryptionKey(current) === null) p.push(`${named('svc.mfa.encryption-key')}: ${KEY_FORMAT}`);
  if (previous !== '' && parseEncryptionKey(previous) === null) p.push(`${named('svc.mfa.previous-encryption-key')}: ${KEY_FORMAT}`);
  if (previous !== '' && current === '')
    p.push(`${named('svc.mfa.previous-encryption-key')}: set without ${named('svc.mfa.encryption-key')}; move it there`);
  const roles = c.raw['svc.mfa.required-roles'];
  if (c.profile === 'prod' && current === '' && roles.length > 0) {
    p.push(
      `${named('svc.mfa.encryption-key')}: required in prod while svc.mfa.required-roles is set (${roles.join(', ')}): ` +
        'without it no second factor can be enrolled',
    );
  }
  return p;
}

const KEY_FORMAT = 'expected 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)';

/** Prod without svc.mfa.encryption-key (and no role requiring a factor, which refuses) starts, but nobody can enrol TOTP. */
export function mfaWarnings(c: AppConfig): string[] {
  if (c.profile !== 'prod' || trimmedText(c, 'svc.mfa.encryption-key') !== '' || c.raw['svc.mfa.required-roles'].length > 0) return [];
  return [
    `${named('svc.mfa.encryption-key')} is not set in prod: TOTP enrolment answers 503 mfa-unavailable ` +
      '(set 32 random bytes, openssl rand -hex 32, the same on every instance)',
  ];
}
