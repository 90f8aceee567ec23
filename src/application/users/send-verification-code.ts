/**
 * Sends a new verification code to a member's address (`POST /auth/verify-email/send`). The
 * caller learns nothing: the answer is the same, and as fast, whether the address is unknown,
 * already verified or waiting for its code, since the lookup and the message happen after the
 * answer (BackgroundWork). Only an account whose address is not verified yet gets a message; its
 * new code replaces the one before.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { DeliverMail } from '../mail/deliver-mail';
import type { AccountStore } from '../ports/account-store';
import { BackgroundWork } from '../shared/background-work';
import { TOKENS } from '../tokens';
import { VerificationCodes } from './verification-codes';

@injectable()
export class SendVerificationCode {
  static readonly reasons: readonly Reason[] = [...DeliverMail.reasons];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(DeliverMail) private readonly mail: DeliverMail,
    @inject(VerificationCodes) private readonly codes: VerificationCodes,
    @inject(BackgroundWork) private readonly background: BackgroundWork,
  ) {}

  /** Throws only 503 mail-unavailable (before anything is looked up); everything else happens after the answer. */
  async execute(input: { loginType: LoginType; email: string }): Promise<void> {
    this.mail.ensureAvailable();
    this.background.run('verify-email-send', async () => {
      const user = await this.accounts.findByEmail(input.email);
      if (user === null || typeof user.email !== 'string' || user.emailVerified === true) return;
      await this.codes.issue(input.loginType, { userId: user.id, username: user.username, email: user.email });
    });
  }
}
