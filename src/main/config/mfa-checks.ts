/** The second-factor keys' rules (svc.mfa.*), each problem naming its key and environment variable. */
import { parseEncryptionKey } from '../../application/mfa/secret-box';
import type { AppConfig } from './app-config';
import { trimmedText } from './declared-rules';
import { named } from './keys';

/**
 * Each set key is 32 bytes (64 hex characters or base64); a previous key only beside a current one; and a prod start
 * whose roles must have a second factor (svc.mfa.required-roles) refuses without the key, since those users could
 * enrol in nothing; nor with the file directory, which in prod keeps no second factor.
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
  if (c.profile === 'prod' && roles.length > 0 && c.directory === 'file') {
    p.push(
      `${named('svc.mfa.required-roles')}: cannot be met in prod while ${named('svc.directory')} is file (${roles.join(', ')}): ` +
        "the file directory keeps no second factor (enrolment answers 409 directory-read-only, as a factor in one process's " +
        'memory would be unknown to the other instances and lost at a restart); use svc.directory=sql, or set no required roles',
    );
  }
  return [...p, ...webauthnChecks(c)];
}

const APP_ORIGINS = ['svc.webauthn.admin-origins', 'svc.webauthn.web-origins'] as const;

/**
 * The retired shared svc.webauthn.origins is refused (both apps accepted every origin in it), and each app's origin
 * lies on the relying party's domain (svc.webauthn.rp-id or a subdomain): a browser runs no ceremony anywhere else.
 */
function webauthnChecks(c: AppConfig): string[] {
  const p: string[] = [];
  if (c.raw['svc.webauthn.origins'].length > 0) {
    p.push(
      `${named('svc.webauthn.origins')}: retired: both apps accepted every origin in it, so a passkey answer made on one ` +
        `app's front end logged in to the other; list the admin front ends in ${named('svc.webauthn.admin-origins')}, ` +
        `the web front ends in ${named('svc.webauthn.web-origins')}, and remove it`,
    );
  }
  const rpId = c.raw['svc.webauthn.rp-id'].trim().toLowerCase();
  for (const key of APP_ORIGINS) {
    for (const origin of c.raw[key]) {
      const host = new URL(origin).hostname;
      if (host !== rpId && !host.endsWith(`.${rpId}`))
        p.push(`${named(key)}: "${origin}" is not on ${named('svc.webauthn.rp-id')} "${rpId}" or a subdomain of it`);
    }
  }
  return p;
}

const KEY_FORMAT = 'expected 32 bytes as 64 hex characters or base64 (openssl rand -hex 32)';

/** An origin both apps accept (their passkey answers cross there); prod without the encryption key. */
export function mfaWarnings(c: AppConfig): string[] {
  const both = c.raw['svc.webauthn.admin-origins'].filter((o) => c.raw['svc.webauthn.web-origins'].includes(o));
  const shared =
    both.length === 0
      ? []
      : [
          `${both.join(', ')} ${both.length === 1 ? 'is' : 'are'} in both ${named('svc.webauthn.admin-origins')} and ` +
            `${named('svc.webauthn.web-origins')}: a passkey answer made there is accepted by both apps`,
        ];
  return [...shared, ...encryptionKeyWarnings(c)];
}

/** Prod without svc.mfa.encryption-key (and no role requiring a factor, which refuses) starts, but nobody can enrol TOTP. */
function encryptionKeyWarnings(c: AppConfig): string[] {
  if (c.profile !== 'prod' || trimmedText(c, 'svc.mfa.encryption-key') !== '' || c.raw['svc.mfa.required-roles'].length > 0) return [];
  return [
    `${named('svc.mfa.encryption-key')} is not set in prod: TOTP enrolment answers 503 mfa-unavailable ` +
      '(set 32 random bytes, openssl rand -hex 32, the same on every instance)',
  ];
}
