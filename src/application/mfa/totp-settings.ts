/** What the TOTP factors read from the configuration (svc.mfa.*, svc.webauthn.rp-name). */
export interface TotpSettings {
  /**
   * The AES-256 keys of the secrets at rest: the current one first, then the previous one. Empty when none is
   * configured (prod without svc.mfa.encryption-key): enrolment then answers 503 mfa-unavailable.
   */
  readonly encryptionKeys: readonly Buffer[];
  /** The issuer authenticator apps show beside the account (svc.webauthn.rp-name). */
  readonly issuer: string;
}
