/**
 * The password policy (ASVS 5.0 6.2), one rule set for both apps: at registration, admin user
 * creation, password change and reset; never at login. A refused password is one `password-policy`
 * error listing every rule it breaks, each as `{pointer, detail}` under the caller's field.
 */
import { inject, injectable, optional } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { passwordPolicyProblems } from '../../domain/password';
import type { AccountStore } from '../ports/account-store';
import type { CommonPasswords } from '../ports/common-passwords';
import type { PasswordHasher } from '../ports/password-hasher';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';

export interface PasswordPolicyInput {
  /** The new password, in plain text. */
  readonly password: string;
  /** The account's username (the new one at registration). */
  readonly username: string;
  /** The JSON Pointer of the password field in the caller's request, e.g. `/password`, `/newPassword`. */
  readonly pointer: string;
  /** The existing account whose history applies; absent at registration and creation (no history yet). */
  readonly userId?: string | undefined;
  /** The account's current BCrypt hash: the newest password of the history. */
  readonly currentHash?: string | undefined;
}

export const COMMON_PASSWORD = 'must not be a common or breached password';

@injectable()
export class CheckPasswordPolicy {
  /** The failures this use case may raise: the policy, and the hasher's and the account store's when the history is read. */
  static readonly reasons: readonly Reason[] = ['password-policy', 'server-busy', 'directory-unavailable'];

  constructor(
    @inject(TOKENS.CommonPasswords) private readonly common: CommonPasswords,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    /** Optional: registration and creation never read a history, and a container may have no account store. */
    @inject(TOKENS.AccountStore) @optional() private readonly accounts?: AccountStore,
  ) {}

  /** Resolves when the password meets every rule; otherwise throws `password-policy` with one entry a broken rule. */
  async execute(input: PasswordPolicyInput): Promise<void> {
    const problems = passwordPolicyProblems(input.password, input.username);
    if (this.common.isCommon(input.password)) problems.push(COMMON_PASSWORD);
    // The history costs one BCrypt verify (~100 ms) a remembered hash, so it is compared only for a
    // password the cheap rules accept: a refused one is refused anyway, and asking for it must not
    // buy CPU. Its errors then list the cheap rules only.
    if (problems.length === 0 && input.userId !== undefined && (await this.isRecent(input.password, input.userId, input.currentHash))) {
      problems.push(recentDetail(this.settings.passwordHistory));
    }
    if (problems.length > 0) {
      const rules = problems.length === 1 ? '1 rule' : `${problems.length} rules`;
      throw new DomainError('password-policy', `The password breaks ${rules} of the password policy.`, {
        errors: problems.map((detail) => ({ pointer: input.pointer, detail })),
      });
    }
  }

  /** Whether `password` is one of the account's last `passwordHistory` passwords, the current one included. */
  private async isRecent(password: string, userId: string, currentHash: string | undefined): Promise<boolean> {
    const count = this.settings.passwordHistory;
    if (count <= 0) return false;
    if (currentHash !== undefined && (await this.hasher.verify(password, currentHash))) return true;
    if (count === 1) return false;
    if (this.accounts === undefined) throw new Error('CheckPasswordPolicy: a history check needs TOKENS.AccountStore bound');
    // One hash after the other, newest first, stopping at a match: a change never takes more than one of the shared BCrypt workers.
    for (const hash of await this.accounts.passwordHistory(userId, count - 1)) {
      if (await this.hasher.verify(password, hash)) return true;
    }
    return false;
  }
}

function recentDetail(count: number): string {
  return count === 1 ? 'must not be the current password' : `must not be one of the last ${count} passwords of the account`;
}
