/** The configuration the passkey use cases read (bound by the composition root). */
export interface WebAuthnSettings {
  /** svc.mfa.challenge-ttl-seconds: how long a ceremony's challenge can be answered (single use). */
  readonly challengeTtlSeconds: number;
}
