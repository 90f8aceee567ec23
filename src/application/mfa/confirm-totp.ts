/** `POST /auth/mfa/totp/confirm`: the first code activates the pending secret; the ten recovery codes, shown once. */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { TotpFactors } from './totp-factors';

@injectable()
export class ConfirmTotp {
  static readonly reasons: readonly Reason[] = [
    'mfa-setup-missing',
    'mfa-already-enrolled',
    'mfa-code-invalid',
    'mfa-unavailable',
    'directory-unavailable',
  ];

  constructor(@inject(TotpFactors) private readonly factors: TotpFactors) {}

  async execute(input: { readonly loginType: LoginType; readonly userId: string; readonly code: string }): Promise<readonly string[]> {
    return this.factors.confirm(input.loginType, input.userId, input.code);
  }
}
