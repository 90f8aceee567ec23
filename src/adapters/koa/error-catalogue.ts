/**
 * The edge half of the error catalogue: each domain reason's HTTP status, stable admin
 * `code` and problem title. docs/errors.md's catalogue table is generated from this (npm run docs:errors;
 * test/unit/docs-generated.test.ts fails when the committed table differs).
 */
import type { Reason } from '../../domain/errors';

export interface CatalogueEntry {
  readonly status: number;
  /** Stable numeric code of the admin envelope (never 0: 0 is success). */
  readonly code: number;
  /** RFC 9457 title: the same for every occurrence of the reason. */
  readonly title: string;
}

export const ERROR_CATALOGUE: Readonly<Record<Reason, CatalogueEntry>> = {
  'validation-failed': { status: 400, code: 40000, title: 'The request is not valid' },
  'malformed-json': { status: 400, code: 40001, title: 'The request body is not valid JSON' },
  'malformed-request': { status: 400, code: 40002, title: 'The HTTP request could not be parsed' },
  'too-many-query-params': { status: 400, code: 40003, title: 'The query string has too many parameters' },
  'captcha-missing': { status: 400, code: 40010, title: 'A captcha answer is required' },
  'captcha-expired': { status: 400, code: 40011, title: 'The captcha has expired' },
  'captcha-wrong': { status: 400, code: 40012, title: 'The captcha answer is wrong' },
  'password-policy': { status: 400, code: 40040, title: 'The new password breaks the password policy' },
  'verification-code-invalid': { status: 400, code: 40041, title: 'The e-mail verification code is not valid' },
  'reset-token-invalid': { status: 400, code: 40042, title: 'The password-reset token is not valid' },
  'sign-headers-missing': { status: 400, code: 40020, title: 'Signing headers are missing' },
  'sign-nonce-invalid': { status: 400, code: 40021, title: 'The nonce is not well formed' },
  'sign-input-invalid': { status: 400, code: 40022, title: 'The signature does not cover what this service requires' },
  'idempotency-token-missing': { status: 400, code: 40030, title: 'An idempotency token is required' },
  'idempotency-key-missing': { status: 400, code: 40031, title: 'An Idempotency-Key header is required' },
  'token-missing': { status: 401, code: 40100, title: 'Authentication is required' },
  'token-bad-prefix': { status: 401, code: 40101, title: 'The authorization scheme is not supported' },
  'token-invalid': { status: 401, code: 40102, title: 'The access token is not valid' },
  'token-expired': { status: 401, code: 40103, title: 'The access token has expired' },
  'token-frozen': { status: 401, code: 40104, title: 'The session was idle for too long' },
  'token-kicked-out': { status: 401, code: 40105, title: 'The session was ended by an administrator' },
  'token-replaced': { status: 401, code: 40106, title: 'The session was replaced by a newer login' },
  'bad-credentials': { status: 401, code: 40110, title: 'Wrong username or password' },
  'current-password-wrong': { status: 401, code: 40113, title: 'The current password is wrong' },
  'account-disabled': { status: 401, code: 40114, title: 'The account is disabled' },
  'mfa-token-invalid': { status: 401, code: 40115, title: 'The second-factor challenge is unknown, used or expired' },
  'mfa-code-invalid': { status: 401, code: 40116, title: 'The second-factor code is wrong' },
  'passkey-invalid': { status: 401, code: 40117, title: 'The passkey response could not be verified' },
  'refresh-token-invalid': { status: 401, code: 40111, title: 'The refresh token is not valid' },
  'refresh-token-reused': { status: 401, code: 40112, title: 'The refresh token was already used' },
  'sign-timestamp-invalid': { status: 401, code: 40121, title: 'The request timestamp is outside the allowed window' },
  'sign-invalid': { status: 401, code: 40122, title: 'The request signature does not match' },
  'sign-nonce-replayed': { status: 401, code: 40123, title: 'The nonce was already used' },
  'sign-digest-mismatch': { status: 401, code: 40124, title: 'The Content-Digest does not match the body' },
  'permission-denied': { status: 403, code: 40300, title: 'A required permission is missing' },
  'role-denied': { status: 403, code: 40301, title: 'A required role is missing' },
  'delegation-denied': { status: 403, code: 40302, title: 'You cannot grant or manage more than you hold' },
  'password-change-required': { status: 403, code: 40303, title: 'The password must be changed first' },
  'email-not-verified': { status: 403, code: 40304, title: 'The e-mail address is not verified yet' },
  'step-up-required': { status: 403, code: 40305, title: 'Recent re-authentication is required' },
  'mfa-enrolment-required': { status: 403, code: 40306, title: 'A second factor must be enrolled first' },
  'not-found': { status: 404, code: 40400, title: 'No such resource' },
  'user-not-found': { status: 404, code: 40401, title: 'No such user' },
  'method-not-allowed': { status: 405, code: 40500, title: 'The method is not allowed on this resource' },
  'request-timeout': { status: 408, code: 40800, title: 'The request took too long to arrive' },
  'username-taken': { status: 409, code: 40900, title: 'The username is already taken' },
  'email-taken': { status: 409, code: 40901, title: 'The e-mail address is already in use' },
  'directory-read-only': { status: 409, code: 40920, title: 'Accounts cannot be changed on this directory' },
  'mfa-setup-missing': { status: 409, code: 40921, title: 'There is no pending second-factor enrolment to confirm' },
  'mfa-already-enrolled': { status: 409, code: 40922, title: 'A second factor of this kind is already active' },
  'last-required-factor': { status: 409, code: 40923, title: 'The last second factor a role of the account requires cannot be removed' },
  'duplicate-submission': { status: 409, code: 40910, title: 'The same request is already being processed' },
  'idempotency-token-invalid': { status: 409, code: 40911, title: 'The idempotency token is unknown, used or expired' },
  'idempotency-token-session-mismatch': { status: 409, code: 40913, title: 'The idempotency token belongs to another session' },
  'idempotency-in-progress': { status: 409, code: 40912, title: 'A request with this Idempotency-Key is still in progress' },
  'captcha-required': { status: 428, code: 42800, title: 'A solved captcha is required for this account now' },
  'payload-too-large': { status: 413, code: 41300, title: 'The request body is too large' },
  'unsupported-media-type': { status: 415, code: 41500, title: 'The content type is not supported' },
  'idempotency-key-mismatch': { status: 422, code: 42200, title: 'The Idempotency-Key was used with a different request' },
  'headers-too-large': { status: 431, code: 43100, title: 'The request headers are too large' },
  'rate-limited': { status: 429, code: 42900, title: 'Too many requests' },
  'account-locked': { status: 429, code: 42901, title: 'Too many failed logins for this account' },
  'internal-error': { status: 500, code: 50000, title: 'Internal server error' },
  'store-unavailable': { status: 503, code: 50300, title: 'The session store is unavailable' },
  'server-busy': { status: 503, code: 50302, title: 'The server is busy' },
  'mail-unavailable': { status: 503, code: 50303, title: 'E-mail cannot be sent' },
  'mfa-unavailable': { status: 503, code: 50304, title: 'Second factors cannot be enrolled on this instance' },
  'directory-unavailable': { status: 503, code: 50301, title: 'The user directory is unavailable' },
};
