/**
 * Sets a new password with a reset token (`POST /auth/reset-password`), then ends every session of
 * the account and cuts off its refresh tokens and device cookies (LogoutAll), since whoever held the
 * old password may be logged in.
 *
 * A spent, unknown, expired or superseded token is 400 reset-token-invalid. The new password is
 * checked (CheckPasswordPolicy: 400 password-policy, the account's history included) before the
 * token is spent, so a refused password leaves it valid for another try. The token is spent
 * atomically (ResetTokens.spend: of two concurrent uses, on any instances, one wins), after the
 * BCrypt hash and before the password is written; if the write fails, the token is given back.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuthSettings } from '../auth/auth-settings';
import { LogoutAll } from '../auth/logout-all';
import type { AccountStore } from '../ports/account-store';
import type { PasswordHasher } from '../ports/password-hasher';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { CheckPasswordPolicy } from './check-password-policy';
import { ResetTokens } from './reset-tokens';

const invalid = (): DomainError =>
  new DomainError(
    'reset-token-invalid',
    'The reset link is unknown, expired, already used or not the newest one; ask for a new one (POST /auth/forgot-password).',
  );

@injectable()
export class ResetPassword {
  static readonly reasons: readonly Reason[] = [
    'reset-token-invalid',
    ...CheckPasswordPolicy.reasons,
    'directory-unavailable',
    'directory-read-only',
    'server-busy',
    ...LogoutAll.reasons,
  ];

  constructor(
    @inject(ResetTokens) private readonly tokens: ResetTokens,
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.AuthSettings) private readonly auth: AuthSettings,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(LogoutAll) private readonly logoutAll: LogoutAll,
    @inject(CheckPasswordPolicy) private readonly policy: CheckPasswordPolicy,
  ) {}

  async execute(input: {
    loginType: LoginType;
    token: string;
    newPassword: string;
  }): Promise<{ passwordReset: true; sessionsEnded: number }> {
    const type = input.loginType;
    const found = await this.tokens.find(type, input.token);
    const user = found === null ? null : await this.directory.findById(found.record.userId);
    if (found === null || user === null) throw invalid();
    // The policy, the account's history included (the current password is its newest entry).
    await this.policy.execute({
      password: input.newPassword,
      username: user.username,
      pointer: '/newPassword',
      userId: user.id,
      currentHash: user.passwordHash,
    });
    const passwordHash = await this.hasher.hash(input.newPassword, this.auth.bcryptCost);
    if (!(await this.tokens.spend(type, found))) throw invalid();
    const keepHistory = Math.max(0, this.settings.passwordHistory - 1);
    let changed;
    try {
      changed = await this.accounts.setPassword(user.id, { passwordHash, mustChange: false, keepHistory });
    } catch (e) {
      await this.tokens.restore(type, found).catch(() => undefined);
      throw e;
    }
    if (changed === null) throw invalid();
    await this.tokens.forget(type, found);
    const sessionsEnded = await this.logoutAll.execute({ loginType: type, userId: user.id, username: user.username });
    // Following the link proved the address, as a verification code would.
    if (changed.emailVerified !== true) await this.accounts.markEmailVerified(user.id, found.record.email);
    return { passwordReset: true, sessionsEnded };
  }
}
