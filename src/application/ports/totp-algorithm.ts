/**
 * The arithmetic of time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): secrets, the code of a time
 * step, and the `otpauth://` URI authenticator apps read. What is done with a code (windows, replay, storage) is
 * the application's (src/application/mfa/totp-factors.ts); this port only computes.
 */
export interface TotpAlgorithm {
  /** Digits of a code (6: the authenticator apps' default). */
  readonly digits: number;
  /** Length of a time step in seconds (30). */
  readonly periodSeconds: number;
  /** A new random secret: 20 bytes (160 bits, RFC 4226's recommended length), in base32 (RFC 4648, no padding). */
  newSecret(): string;
  /** The code of time step `step` (the number of whole periods since the Unix epoch) for a base32 secret. */
  codeAt(secret: string, step: number): string;
  /** The codes of several time steps, in their order: the secret is decoded once for all of them (a verify's window). */
  codesAt(secret: string, steps: readonly number[]): string[];
  /** The Key Uri Format URI (`otpauth://totp/<issuer>:<label>?secret=...&issuer=...`) a QR code carries. */
  keyUri(secret: string, issuer: string, label: string): string;
}
