/**
 * Checks one proof of a second factor (a TOTP code, a recovery code, a passkey assertion) for an
 * account: what a login's second step and a step-up share. A wrong proof is `false` (a passkey
 * that fails verification too), never an exception, so the caller counts it against the budget.
 */
import { inject, injectable } from 'inversify';
import { isDomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuthMethod } from '../../domain/session';
import type { AuthenticationResponseJson } from '../ports/webauthn-verifier';
import { Passkeys } from './passkeys';
import { TotpFactors } from './totp-factors';

export interface FactorProof {
  readonly code?: string | undefined;
  readonly recoveryCode?: string | undefined;
  readonly webauthn?: AuthenticationResponseJson | undefined;
}

export type ProofResult =
  { readonly ok: true; readonly amr: AuthMethod } | { readonly ok: false; readonly reason: 'mfa-code-invalid' | 'passkey-invalid' };

@injectable()
export class ProveFactor {
  /** Wrong proofs are values; what may still fail is the store, or a secret no configured key opens. */
  static readonly reasons: readonly Reason[] = ['mfa-unavailable', 'store-unavailable'];

  constructor(
    @inject(TotpFactors) private readonly totp: TotpFactors,
    @inject(Passkeys) private readonly passkeys: Passkeys,
  ) {}

  async execute(loginType: LoginType, userId: string, proof: FactorProof): Promise<ProofResult> {
    if (proof.webauthn !== undefined) {
      try {
        const passkey = await this.passkeys.verifyAuthentication(loginType, proof.webauthn, userId);
        return { ok: true, amr: passkey.method };
      } catch (e) {
        if (isDomainError(e) && e.reason === 'passkey-invalid') return { ok: false, reason: 'passkey-invalid' };
        throw e;
      }
    }
    if (proof.recoveryCode !== undefined) {
      const ok = await this.totp.useRecoveryCode(loginType, userId, proof.recoveryCode);
      return ok ? { ok: true, amr: 'otp' } : { ok: false, reason: 'mfa-code-invalid' };
    }
    const ok = proof.code !== undefined && (await this.totp.verify(loginType, userId, proof.code));
    return ok ? { ok: true, amr: 'otp' } : { ok: false, reason: 'mfa-code-invalid' };
  }
}
