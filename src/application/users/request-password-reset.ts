/**
 * "Forgot password" (`POST /auth/forgot-password`): mails the account holding the address a link
 * to the front end's reset page (svc.web.reset-link with `token=...` appended) carrying a new
 * reset token (ResetTokens), which supersedes any earlier one.
 *
 * The caller learns nothing about the address: the only failure is 503 mail-unavailable, decided
 * before any lookup, and the lookup, the token and the message happen after the answer
 * (BackgroundWork), so a known and an unknown address cost the request the same.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { DeliverMail } from '../mail/deliver-mail';
import type { AccountStore } from '../ports/account-store';
import { BackgroundWork } from '../shared/background-work';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { ResetTokens } from './reset-tokens';

/**
 * The reset page's link with `token=...` appended: after `?`, or after `&` when the link already has a
 * `?` (a query, or a hash router's `#/reset?x=1`), nothing more when it already ends in `?` or `&`.
 */
export function resetLinkWith(link: string, token: string): string {
  const separator = !link.includes('?') ? '?' : link.endsWith('?') || link.endsWith('&') ? '' : '&';
  return `${link}${separator}token=${token}`;
}

@injectable()
export class RequestPasswordReset {
  static readonly reasons: readonly Reason[] = [...DeliverMail.reasons];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(DeliverMail) private readonly mail: DeliverMail,
    @inject(ResetTokens) private readonly tokens: ResetTokens,
    @inject(BackgroundWork) private readonly background: BackgroundWork,
  ) {}

  /** Throws only 503 mail-unavailable; returns before the address is even looked up. */
  async execute(input: { loginType: LoginType; email: string }): Promise<void> {
    this.mail.ensureAvailable();
    this.background.run('forgot-password', () => this.send(input.loginType, input.email));
  }

  private async send(type: LoginType, email: string): Promise<void> {
    const user = await this.accounts.findByEmail(email);
    if (user === null || typeof user.email !== 'string') return;
    const token = await this.tokens.issue(type, { userId: user.id, email: user.email });
    const minutes = Math.round(this.settings.resetTokenTtlSeconds / 60);
    await this.mail.send('reset-password', {
      to: user.email,
      subject: 'Reset your password',
      text:
        `Someone, hopefully you, asked to reset the password of the account "${user.username}".\n\n` +
        `To choose a new password, open this link within ${minutes} minutes (it works once, and only the newest link works):\n` +
        `${resetLinkWith(this.settings.resetLink, token)}\n\n` +
        'Setting a new password logs the account out everywhere. If you did not ask for this, ignore this message: ' +
        'your password stays as it is.\n',
    });
  }
}
