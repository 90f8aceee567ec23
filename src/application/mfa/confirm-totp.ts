/**
 * `POST /auth/mfa/totp/confirm`: the first code activates the pending secret; the ten recovery codes, shown once. A
 * session restricted until a second factor is enrolled (required action `mfa-enrolment`) becomes a full one: the
 * caller's own session record loses the action (the user's other restricted sessions keep it until they log in again).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { SessionRecord } from '../../domain/session';
import { LiftRequiredAction } from './lift-required-action';
import { TotpFactors } from './totp-factors';

export interface ConfirmTotpInput {
  readonly loginType: LoginType;
  /** The caller's session: whose factor it is, and the record that may lose its `mfa-enrolment` action. */
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly code: string;
}

@injectable()
export class ConfirmTotp {
  static readonly reasons: readonly Reason[] = [
    'mfa-setup-missing',
    'mfa-already-enrolled',
    'mfa-code-invalid',
    'mfa-unavailable',
    'directory-unavailable',
    'directory-read-only',
    'store-unavailable',
  ];

  constructor(
    @inject(TotpFactors) private readonly factors: TotpFactors,
    @inject(LiftRequiredAction) private readonly lift: LiftRequiredAction,
  ) {}

  async execute(input: ConfirmTotpInput): Promise<readonly string[]> {
    const codes = await this.factors.confirm(input.loginType, input.record.principal.userId, input.code);
    const { loginType, tokenHash, record } = input;
    await this.lift.execute({ loginType, tokenHash, record, action: 'mfa-enrolment' });
    return codes;
  }
}
