/** What each problem type's page says (`GET /problems/<reason>`): what happened and what to do. */
import type { Reason } from '../../domain/errors';
import { SESSION_PROBLEM_PAGES } from './session-problem-pages';

export interface ProblemPage {
  /** What happened. */
  readonly what: string;
  /** What the client (or its user) should do. */
  readonly todo: string;
}

/** A Record over every reason: adding a reason without its page fails the type check. */
export const PROBLEM_PAGES: Readonly<Record<Reason, ProblemPage>> = {
  'validation-failed': {
    what: 'The request body or query did not match what the endpoint accepts.',
    todo:
      'Read the errors array: each entry names the invalid field with a JSON Pointer and says ' +
      'what is wrong. Fix those fields and send the request again.',
  },
  'malformed-json': {
    what: 'The request body is not well-formed JSON.',
    todo: 'Send a valid JSON document (UTF-8) with Content-Type: application/json.',
  },
  'malformed-request': {
    what: 'The HTTP request itself could not be parsed.',
    todo: 'Check the client or proxy that built the request; send a well-formed HTTP/1.1 request.',
  },
  'too-many-query-params': {
    what:
      'The query string has more parameters than the service reads (svc.http.max-query-params, ' +
      '1,000 by default); none is dropped silently.',
    todo: 'Send fewer parameters, or move the data into a JSON body.',
  },
  'captcha-missing': {
    what: 'This login requires a captcha answer and none was sent.',
    todo: 'Fetch a captcha, show it to the user and send its uuid with their answer.',
  },
  'captcha-expired': {
    what: 'The captcha is unknown, was already used or has expired. Each captcha can be checked once only.',
    todo: 'Fetch a new captcha and ask the user again.',
  },
  'captcha-wrong': {
    what: 'The captcha answer does not match. The captcha is used up.',
    todo: 'Fetch a new captcha and ask the user again.',
  },
  'sign-headers-missing': {
    what:
      'This endpoint requires a signed request and one or more of X-App-Key, X-Timestamp, X-Nonce ' +
      'and X-Sign (or, with RFC 9421, Signature beside Signature-Input) is missing.',
    todo: 'Send all the signing headers of your scheme.',
  },
  'sign-nonce-invalid': {
    what: 'The nonce (X-Nonce, or the RFC 9421 nonce parameter) is not well formed.',
    todo: 'Use a fresh random nonce of 8-128 characters of A-Z a-z 0-9 _ -.',
  },
  'sign-input-invalid': {
    what: 'The RFC 9421 Signature-Input or Signature cannot be read, or the signature does not cover what this service requires.',
    todo:
      'Sign with hmac-sha256, keyid = your app key, the created and nonce parameters, and cover ' +
      '"@method", "@target-uri" and (with a body) "content-digest".',
  },
  'idempotency-token-missing': {
    what: 'This endpoint requires a one-time idempotency token in X-Idempotent-Token.',
    todo: 'Fetch a token from GET /idempotent/token and send it with the request.',
  },
  'idempotency-key-missing': {
    what: 'This endpoint requires an Idempotency-Key header.',
    todo: 'Generate a unique key (for example a UUID) per operation and send it; reuse it only to retry the same operation.',
  },
  ...SESSION_PROBLEM_PAGES,
  'bad-credentials': {
    what: 'The username or the password is wrong. For security, the service does not say which.',
    todo: 'Check both and try again. Repeated failures lock the username for a while.',
  },
  'refresh-token-invalid': { what: 'The refresh token is unknown, expired, already used or its login was ended.', todo: 'Log in again.' },
  'refresh-token-reused': {
    what:
      'A refresh token was presented after it had already been exchanged. This may mean it was ' +
      'stolen, so every session of that login was ended.',
    todo: 'Log in again. Make sure the client stores only the newest refresh token and uses it once.',
  },
  'sign-timestamp-invalid': {
    what: 'X-Timestamp is not an integer of milliseconds or is too far from the server clock.',
    todo: 'Synchronise the client clock and send the current time in milliseconds since the epoch.',
  },
  'sign-invalid': {
    what: 'The signature does not match the request, or the app key is not registered for this signing scheme.',
    todo:
      'Check your app key, secret and scheme; v1: sign appKey + timestamp + nonce + the exact ' +
      'body bytes with HMAC-SHA256 (lowercase hex); RFC 9421: sign the method and the exact URL you send.',
  },
  'sign-digest-mismatch': {
    what: 'The Content-Digest header does not match the request body.',
    todo: 'Compute sha-256 over the exact body bytes you send: Content-Digest: sha-256=:<base64>:.',
  },
  'sign-nonce-replayed': {
    what: 'This nonce was already used: the request looks like a replay.',
    todo: 'Send every request with a fresh random nonce.',
  },
  'permission-denied': {
    what: 'You are logged in but lack a permission this action requires.',
    todo: 'Ask an administrator for the permission, or do not offer this action to this user.',
  },
  'role-denied': {
    what: 'You are logged in but lack a role this action requires.',
    todo: 'Ask an administrator for the role, or do not offer this action to this user.',
  },
  'delegation-denied': {
    what: 'The action would grant a permission you do not hold yourself, touch an account that holds one, or change your own access.',
    todo: 'Ask someone who holds every permission concerned (the message names the one missing) to do it.',
  },
  'not-found': { what: 'There is no such resource (or it is not yours to see).', todo: 'Check the path and the identifier.' },
  'user-not-found': { what: 'There is no such user.', todo: 'Check the user identifier.' },
  'method-not-allowed': {
    what: 'The resource exists but does not support this HTTP method.',
    todo: 'Use one of the methods listed in the Allow header.',
  },
  'request-timeout': {
    what: 'The request did not arrive completely in time.',
    todo: 'Retry; if it keeps happening, check the network between the client and the service.',
  },
  'username-taken': { what: 'An account with this username already exists.', todo: 'Choose another username (or log in, if it is yours).' },
  'duplicate-submission': {
    what: 'The same request is already being processed or was just processed.',
    todo: "Do not resubmit; wait for the first request's answer.",
  },
  'idempotency-token-invalid': {
    what: 'The idempotency token is unknown, already used or expired.',
    todo: 'Fetch a new token from GET /idempotent/token if you mean to submit again.',
  },
  'idempotency-token-session-mismatch': {
    what: 'The idempotency token was fetched with the access token of another session; only that session may spend it.',
    todo:
      'Fetch a new token from GET /idempotent/token with the access token of the session that ' +
      'submits (or without one, for a token anyone may spend).',
  },
  'idempotency-in-progress': {
    what: 'A request with this Idempotency-Key is still running.',
    todo: 'Wait for the Retry-After seconds, then retry with the same key to get its result.',
  },
  'captcha-required': {
    what:
      'Too many failed logins of this account came from clients that have not logged in to it ' +
      'before, so such a client must now prove it is a person.',
    todo:
      'Fetch a captcha from GET /auth/captchaImage (admin: ?purpose=unlock), then send the login ' +
      'again with its uuid and your answer as code. A device that has logged in to the account before is not asked.',
  },
  'password-policy': {
    what:
      'The new password breaks the password policy: 8 to 64 characters and at most 72 bytes, not the ' +
      'username, not a common or breached password, not one of your recent passwords. The errors array names each rule broken.',
    todo: 'Choose a longer, less common password (a passphrase of several words works well); no special characters are required.',
  },
  'current-password-wrong': {
    what: 'The current password sent with the change is wrong. It counts as a failed login of the account.',
    todo: 'Send the password the account logs in with now; repeated failures lock the account like failed logins.',
  },
  'password-change-required': {
    what: 'An administrator reset this password, so this session may only change it (and read /auth/me or log out).',
    todo: 'Change the password (admin: POST /auth/password); the same session then works in full.',
  },
  'account-disabled': {
    what: 'The account is disabled by an administrator, or banned until the time the message gives.',
    todo: 'Wait until the ban ends, or ask an administrator to enable the account.',
  },
  'email-taken': {
    what: 'Another account already uses this e-mail address (addresses are compared without regard to case).',
    todo: 'Use another address, or reset the password of the account that has it (POST /auth/forgot-password).',
  },
  'email-not-verified': {
    what: "The account's e-mail address is not verified yet, and this service lets only verified members log in.",
    todo: 'Enter the code from the verification message (POST /auth/verify-email), or ask for a new one (POST /auth/verify-email/send).',
  },
  'verification-code-invalid': {
    what: 'The verification code is wrong, expired, already used or was tried too many times.',
    todo: 'Ask for a new code (POST /auth/verify-email/send) and enter the one from the newest message.',
  },
  'reset-token-invalid': {
    what: 'The password-reset link is unknown, expired, already used, or a newer one was sent since.',
    todo: 'Ask for a new link (POST /auth/forgot-password) and use the one from the newest message.',
  },
  'directory-read-only': {
    what:
      'Accounts live in the embedded YAML files, whose changes would be lost at the next restart, so ' +
      'this production instance refuses to change them.',
    todo: 'Operators: run with svc.directory=sql (docs/operations.md); change accounts there.',
  },
  'mail-unavailable': {
    what: 'This action sends an e-mail and no mail server is configured (svc.mail.smtp-url).',
    todo: 'Retry later; operators: set svc.mail.smtp-url.',
  },
  'mfa-token-invalid': {
    what: 'The mfaToken of this second-factor step is unknown, was already used, or expired (it lives a few minutes).',
    todo: 'Log in again with the password to get a new mfaToken.',
  },
  'mfa-code-invalid': {
    what: 'The authenticator code or recovery code is wrong, or was already used. It counts as a failed login of the account.',
    todo: 'Enter the current code of your authenticator app (or an unused recovery code); check the device clock.',
  },
  'passkey-invalid': {
    what:
      'The passkey (WebAuthn) response could not be verified: wrong challenge or origin, unknown credential, ' +
      'or a bad signature or counter.',
    todo: 'Ask for new options and try the passkey again; if it keeps failing, use another factor.',
  },
  'step-up-required': {
    what: 'This action is sensitive and the session last proved who you are too long ago.',
    todo: 'Re-authenticate on this session (POST /auth/step-up with your password, a code or a passkey), then retry.',
  },
  'mfa-enrolment-required': {
    what: 'Your role requires a second factor and the account has none, so this session may only enrol one.',
    todo: 'Enrol a factor (POST /auth/mfa/totp/setup then /confirm, or a passkey); the same session then works in full.',
  },
  'mfa-setup-missing': {
    what: 'There is no pending authenticator enrolment to confirm (none was started, or it expired).',
    todo: 'Start again with POST /auth/mfa/totp/setup.',
  },
  'mfa-already-enrolled': {
    what: 'The account already has an active authenticator.',
    todo: 'Remove it first (DELETE /auth/mfa/totp, which needs a recent re-authentication) to enrol another.',
  },
  'last-required-factor': {
    what: 'This is the last second factor of the account, and a role of yours requires one (svc.mfa.required-roles).',
    todo: 'Enrol another factor first (a passkey, or an authenticator app), then remove this one; or ask an administrator.',
  },
  'mfa-unavailable': {
    what: 'Second factors cannot be enrolled: the instance has no key to encrypt their secrets (svc.mfa.encryption-key).',
    todo: 'Retry later; operators: set svc.mfa.encryption-key.',
  },
  'payload-too-large': { what: 'The request body is larger than the service accepts.', todo: 'Send a smaller body.' },
  'unsupported-media-type': {
    what: 'The request body is not in a format this endpoint accepts.',
    todo: 'Send JSON with Content-Type: application/json.',
  },
  'idempotency-key-mismatch': {
    what: 'This Idempotency-Key was already used with a different request.',
    todo: 'Use a new key for a new operation; reuse a key only to retry the identical request.',
  },
  'headers-too-large': {
    what: 'The request headers are larger than the service accepts.',
    todo: 'Send fewer or smaller headers (cookies are a common cause).',
  },
  'rate-limited': {
    what: 'Too many requests of this kind came from you in a short time.',
    todo: 'Wait the number of seconds in the Retry-After header before trying again. The RateLimit headers show the policy.',
  },
  'account-locked': {
    what: 'There were too many failed logins for this username, so it is locked for a while.',
    todo: 'Wait the number of seconds in the Retry-After header, then log in with the right password.',
  },
  'internal-error': {
    what: 'The service failed unexpectedly. The details were logged; none are shown here.',
    todo: 'Retry later. If it persists, report the instance value of the problem to the operator.',
  },
  'store-unavailable': {
    what: 'The session store cannot be reached, so the service cannot check or create sessions.',
    todo: 'Retry after the Retry-After seconds or a short pause.',
  },
  'server-busy': {
    what: 'Too many password checks are already waiting; the server sheds load instead of queueing without bound.',
    todo: 'Retry after the Retry-After seconds.',
  },
  'directory-unavailable': {
    what: 'The user directory (database) cannot be reached, so accounts cannot be looked up.',
    todo: 'Retry after the Retry-After seconds or a short pause.',
  },
  'role-not-found': { what: 'There is no such role.', todo: 'Check the role identifier (GET /system/role lists them).' },
  'menu-not-found': { what: 'There is no such menu.', todo: 'Check the menu identifier (GET /system/menu shows the tree).' },
  'role-key-taken': { what: 'Another role already has this key (keys are compared exactly).', todo: 'Choose another key.' },
  'role-in-use': {
    what: 'Users still hold the role, so it cannot be deleted.',
    todo: 'Take the role from its users first (POST /system/user/{id}/roles), or disable it instead.',
  },
  'menu-has-children': { what: 'Menus are still below this one, so it cannot be deleted.', todo: 'Delete or move them first.' },
  'menu-in-use': {
    what: 'Roles still hold the menu, so it cannot be deleted (deleting it would change their permissions).',
    todo: 'Take the menu from those roles first (PUT /system/role/{id}/menus).',
  },
};
