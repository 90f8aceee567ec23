/**
 * Confirms a member's address with the code mailed to it (`POST /auth/verify-email`). A wrong,
 * unknown, expired, spent or tried-out code, and a code for an address the account no longer
 * holds, are one answer: 400 verification-code-invalid.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AccountStore } from '../ports/account-store';
import { TOKENS } from '../tokens';
import { VerificationCodes } from './verification-codes';

@injectable()
export class VerifyEmail {
  static readonly reasons: readonly Reason[] = [
    'verification-code-invalid',
    'store-unavailable',
    'directory-unavailable',
    'directory-read-only',
  ];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(VerificationCodes) private readonly codes: VerificationCodes,
  ) {}

  async execute(input: { loginType: LoginType; email: string; code: string }): Promise<{ email: string; verified: true }> {
    const proved = await this.codes.check(input.loginType, input.email, input.code);
    if (proved === null || !(await this.accounts.markEmailVerified(proved.userId, proved.email))) {
      throw new DomainError(
        'verification-code-invalid',
        'The verification code is wrong, expired or already used; ask for a new one (POST /auth/verify-email/send).',
      );
    }
    return { email: proved.email, verified: true };
  }
}
