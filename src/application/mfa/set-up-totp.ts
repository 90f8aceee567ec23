/** `POST /auth/mfa/totp/setup`: a new pending TOTP secret for the caller, shown once (secret, URI, QR code). */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { TotpFactors, type TotpAccount, type TotpEnrolment } from './totp-factors';

@injectable()
export class SetUpTotp {
  static readonly reasons: readonly Reason[] = ['mfa-already-enrolled', 'mfa-unavailable', 'directory-unavailable', 'directory-read-only'];

  constructor(@inject(TotpFactors) private readonly factors: TotpFactors) {}

  execute(input: { readonly loginType: LoginType; readonly account: TotpAccount }): Promise<TotpEnrolment> {
    return this.factors.setup(input.loginType, input.account);
  }
}
