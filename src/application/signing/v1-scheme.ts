/**
 * The seed's scheme (v1): X-Sign = hex HMAC-SHA256(appSecret, appKey + timestamp + nonce + body),
 * in X-App-Key / X-Timestamp / X-Nonce / X-Sign. It covers neither the method nor the target URI.
 * Checks, in this order: all four headers present (sign-headers-missing, 400), nonce well formed
 * (sign-nonce-invalid, 400), timestamp canonical and within the window (sign-timestamp-invalid),
 * then the HMAC in constant time (sign-invalid: also for an app key that is not registered for v1,
 * with the same message), and only then the nonce recorded (sign-nonce-replayed).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../domain/errors';
import { NONCE_PATTERN, SIGNATURE_PATTERN, parseTimestamp, signingPrefix } from '../../domain/signing';
import type { NonceLedger } from './nonce-ledger';
import { fieldValue, type SignedRequest } from './signed-request';
import type { SigningApps } from './signing-apps';

export const V1_HEADERS = ['X-App-Key', 'X-Timestamp', 'X-Nonce', 'X-Sign'] as const;

export const V1_SIGNATURE_MISMATCH = 'The X-Sign signature does not match the request.';

/** Verifies a v1-signed request; returns the app key that signed it. */
export async function verifyV1(request: SignedRequest, apps: SigningApps, ledger: NonceLedger, nowMs: number): Promise<string> {
  const [appKey, timestamp, nonce, sign] = V1_HEADERS.map((name) => fieldValue(request, name.toLowerCase()));
  if (!appKey || !timestamp || !nonce || !sign) {
    const missing = V1_HEADERS.filter((name) => !fieldValue(request, name.toLowerCase()));
    throw new DomainError('sign-headers-missing', `Missing signing header(s): ${missing.join(', ')}.`);
  }
  if (!NONCE_PATTERN.test(nonce)) {
    throw new DomainError('sign-nonce-invalid', 'X-Nonce must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-".');
  }
  const ts = parseTimestamp(timestamp);
  if (ts === null || !ledger.inWindow(ts, nowMs)) {
    throw new DomainError(
      'sign-timestamp-invalid',
      `X-Timestamp must be the current time in milliseconds, digits without leading zeros (within ` +
        `±${ledger.timeoutSeconds} s of the server clock).`,
    );
  }

  const { key, known } = apps.keyFor(appKey, 'v1');
  const expected = createHmac('sha256', key)
    .update(signingPrefix(appKey, timestamp, nonce), 'utf8')
    .update(request.body)
    .digest();
  // Format and length are public; only equal-length byte strings are compared, in constant time.
  const given = SIGNATURE_PATTERN.test(sign) ? Buffer.from(sign, 'hex') : null;
  const matches = given !== null && given.length === expected.length && timingSafeEqual(given, expected);
  if (!matches || !known) throw new DomainError('sign-invalid', V1_SIGNATURE_MISMATCH);

  await ledger.record(appKey, nonce, ts, nowMs, 'X-Nonce');
  return appKey;
}
