/**
 * The error catalogue's domain half: every failure the service can report has a stable
 * reason string. HTTP status, admin numeric code and problem titles live at the edge
 * (src/adapters/koa/error-catalogue.ts); nothing here knows about HTTP.
 */
import type { LoginType } from './login-type';
export const REASONS = [
  // generic request problems
  'validation-failed',
  'malformed-json',
  'malformed-request',
  'too-many-query-params',
  'headers-too-large',
  'request-timeout',
  'not-found',
  'method-not-allowed',
  'payload-too-large',
  'unsupported-media-type',
  'internal-error',
  'store-unavailable',
  'server-busy',
  // session resolution (the reasons Sa-Token's NotLoginException gives: why a token does not log anyone in)
  'token-missing',
  'token-bad-prefix',
  'token-invalid',
  'token-expired',
  'token-frozen',
  'token-kicked-out',
  'token-replaced',
  // authorization
  'permission-denied',
  'role-denied',
  'delegation-denied',
  // login and accounts
  'bad-credentials',
  'captcha-missing',
  'captcha-expired',
  'captcha-wrong',
  'account-locked',
  'captcha-required',
  'rate-limited',
  'refresh-token-invalid',
  'refresh-token-reused',
  'already-logged-in',
  'username-taken',
  'user-not-found',
  // account lifecycle (passwords, e-mail, account state)
  'password-policy',
  'current-password-wrong',
  'password-change-required',
  'account-disabled',
  'email-taken',
  'email-not-verified',
  'verification-code-invalid',
  'reset-token-invalid',
  'directory-read-only',
  'mail-unavailable',
  // strong authentication (second factors, passkeys, step-up)
  'mfa-token-invalid',
  'mfa-code-invalid',
  'passkey-invalid',
  'step-up-required',
  'mfa-enrolment-required',
  'mfa-setup-missing',
  'mfa-already-enrolled',
  'mfa-unavailable',
  'last-required-factor',
  // request signing
  'sign-headers-missing',
  'sign-nonce-invalid',
  'sign-input-invalid',
  'sign-timestamp-invalid',
  'sign-digest-mismatch',
  'sign-invalid',
  'sign-nonce-replayed',
  // duplicate-submission protection
  'duplicate-submission',
  'idempotency-token-missing',
  'idempotency-token-invalid',
  'idempotency-token-session-mismatch',
  'idempotency-key-missing',
  'idempotency-key-mismatch',
  'idempotency-in-progress',
  // user directory
  'directory-unavailable',
  // roles and menus (the admin SPA's back office)
  'role-not-found',
  'menu-not-found',
  'role-key-taken',
  'role-in-use',
  'menu-has-children',
  'menu-in-use',
] as const;

export type Reason = (typeof REASONS)[number];

/** One invalid field of a request: RFC 9457 style `{pointer, detail}` (pointer is a JSON Pointer). */
export interface FieldError {
  readonly pointer: string;
  readonly detail: string;
}

export interface DomainErrorExtras {
  /** Field-level validation problems. */
  readonly errors?: readonly FieldError[];
  /** Seconds the client should wait before retrying (429, 409 in-progress, 503). */
  readonly retryAfterSeconds?: number;
  /** Login type concerned (realm of WWW-Authenticate on 401s). */
  readonly loginType?: LoginType;
  /** Whether a credential was presented (RFC 6750: error="invalid_token" only then). */
  readonly tokenPresented?: boolean;
  /** Extra response headers computed by the use case (e.g. rate-limit headers). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Underlying cause, for the log only. */
  readonly cause?: unknown;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly reason: Reason,
    message: string,
    readonly extras: DomainErrorExtras = {},
  ) {
    super(message);
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}
