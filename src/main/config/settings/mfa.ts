/** Strong authentication: second factors (TOTP, recovery codes), passkeys (WebAuthn), step-up. */
import { setting } from '../setting';
import { int, list, str, webauthnOrigins } from '../values';

export const MFA_KEYS = {
  'svc.mfa.encryption-key': setting({
    schema: str,
    default: '',
    secret: true,
    doc:
      'key that encrypts second-factor secrets at rest (AES-256-GCM; 32 bytes as 64 hex characters or base64); dev and test ' +
      'generate an ephemeral one with a warning; prod without it answers 503 `mfa-unavailable` to enrolment',
  }),
  'svc.mfa.previous-encryption-key': setting({
    schema: str,
    default: '',
    secret: true,
    doc: 'the key before the current one, still read (rotation: secrets are re-encrypted with the current key when used)',
  }),
  'svc.mfa.required-roles': setting({
    schema: list,
    default: [],
    doc:
      'roles whose holders must have a second factor: without one, a login gets a session restricted to enrolling one ' +
      '(prod: needs `svc.mfa.encryption-key` and `svc.directory=sql`, else the start is refused)',
  }),
  'svc.mfa.challenge-ttl-seconds': setting({
    schema: int(30, 1800),
    default: 300,
    doc: 'how long the `mfaToken` of a login waiting for its second factor lives (single use)',
  }),
  'svc.webauthn.rp-id': setting({
    schema: str,
    default: 'localhost',
    doc: 'WebAuthn relying-party id: the registrable domain the passkeys belong to (e.g. `example.com`)',
  }),
  'svc.webauthn.rp-name': setting({
    schema: str,
    default: 'authguard',
    doc: 'relying-party name authenticators show',
  }),
  'svc.webauthn.admin-origins': setting({
    schema: webauthnOrigins,
    default: ['http://localhost:8080'],
    doc:
      "origins a WebAuthn answer to the admin app may come from (list; its front ends' exact origins, each on " +
      '`svc.webauthn.rp-id` or a subdomain of it); an answer made on any other origin is `passkey-invalid`',
  }),
  'svc.webauthn.web-origins': setting({
    schema: webauthnOrigins,
    default: ['http://localhost:8081'],
    doc:
      "origins a WebAuthn answer to the web app may come from (list; its front ends' exact origins, each on " +
      '`svc.webauthn.rp-id` or a subdomain of it); an answer made on any other origin is `passkey-invalid`',
  }),
  'svc.webauthn.origins': setting({
    schema: list,
    default: [],
    doc:
      'retired (one list both apps accepted, so an answer made on one front end logged in to the other): a start with it ' +
      'set is refused; put each front end in `svc.webauthn.admin-origins` or `svc.webauthn.web-origins`',
  }),
  'svc.step-up.max-age-seconds': setting({
    schema: int(10, 86400),
    default: 300,
    doc: 'sensitive routes need the session to have proved its user within this many seconds (else 403 `step-up-required`)',
  }),
};
