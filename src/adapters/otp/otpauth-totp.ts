/**
 * RFC 6238 codes by otpauth (MIT; one dependency, @noble/hashes, MIT), whose HMAC is node:crypto's on Node. It is
 * chosen over otplib (MIT, six packages since v13) for being one package with its own types, and over code written
 * here because the dynamic truncation, base32 and the Key Uri Format are easy to get subtly wrong; the RFC's test
 * vectors and oathtool check it (test/unit/totp-algorithm.test.ts).
 *
 * Defaults are the authenticator apps': SHA-1, 6 digits, 30 s. Other options exist for the RFC's own vectors
 * (8 digits) and are not used by the service.
 */
import { HOTP, Secret, TOTP } from 'otpauth';
import type { TotpAlgorithm } from '../../application/ports/totp-algorithm';

export interface TotpOptions {
  readonly algorithm?: 'SHA1' | 'SHA256' | 'SHA512';
  readonly digits?: number;
  readonly periodSeconds?: number;
}

/** Bytes of a new secret: 160 bits, RFC 4226 section 4's recommendation (and what the common apps expect). */
const SECRET_BYTES = 20;

export class OtpauthTotp implements TotpAlgorithm {
  readonly digits: number;
  readonly periodSeconds: number;
  private readonly algorithm: 'SHA1' | 'SHA256' | 'SHA512';

  constructor(options: TotpOptions = {}) {
    this.algorithm = options.algorithm ?? 'SHA1';
    this.digits = options.digits ?? 6;
    this.periodSeconds = options.periodSeconds ?? 30;
  }

  newSecret(): string {
    return new Secret({ size: SECRET_BYTES }).base32;
  }

  codeAt(secret: string, step: number): string {
    return this.codesAt(secret, [step])[0] as string;
  }

  /** RFC 6238's TOTP is HOTP with the time step as the counter: one HOTP per step, on the secret decoded once. */
  codesAt(secret: string, steps: readonly number[]): string[] {
    for (const step of steps)
      if (!Number.isSafeInteger(step) || step < 0) throw new RangeError(`a time step is a non-negative integer, not ${step}`);
    const key = Secret.fromBase32(secret);
    return steps.map((counter) => HOTP.generate({ secret: key, algorithm: this.algorithm, digits: this.digits, counter }));
  }

  keyUri(secret: string, issuer: string, label: string): string {
    return new TOTP({ ...this.params(secret), issuer, label }).toString();
  }

  private params(secret: string) {
    return { secret: Secret.fromBase32(secret), algorithm: this.algorithm, digits: this.digits, period: this.periodSeconds };
  }
}
