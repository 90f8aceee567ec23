/** `DELETE /auth/mfa/totp`: the caller's TOTP factor, its recovery codes and any pending setup are removed. */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { TotpFactors } from './totp-factors';

@injectable()
export class RemoveTotp {
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(TotpFactors) private readonly factors: TotpFactors) {}

  /** True when a factor was active (removing none is not an error: the result is the same). */
  execute(input: { readonly loginType: LoginType; readonly userId: string }): Promise<boolean> {
    return this.factors.remove(input.loginType, input.userId);
  }
}
