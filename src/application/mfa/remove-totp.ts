/**
 * `DELETE /auth/mfa/totp`: the caller's TOTP factor, its recovery codes and any pending setup are removed; refused
 * (409 `last-required-factor`) when it is the only factor left and a role of the caller requires one.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { RequiredFactor, type FactorHolder } from './required-factor';
import { TotpFactors } from './totp-factors';

@injectable()
export class RemoveTotp {
  static readonly reasons: readonly Reason[] = ['directory-unavailable', ...RequiredFactor.reasons];

  constructor(
    @inject(TotpFactors) private readonly factors: TotpFactors,
    @inject(RequiredFactor) private readonly required: RequiredFactor,
  ) {}

  /** True when a factor was active (removing none is not an error: the result is the same). */
  async execute(input: { readonly loginType: LoginType; readonly user: FactorHolder }): Promise<boolean> {
    if (await this.factors.isEnrolled(input.loginType, input.user.userId))
      await this.required.assertRemovable(input.loginType, input.user, { kind: 'totp' });
    return this.factors.remove(input.loginType, input.user.userId);
  }
}
