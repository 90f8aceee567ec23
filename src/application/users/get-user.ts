/**
 * One admin account with its state, as an administrator sees it: enabled, why and until when it is
 * disabled, until when failed logins lock it, whether it must change its password.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { AccountLock } from '../auth/account-lock';
import type { Clock } from '../ports/clock';
import { accountActive, type UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { ADMIN_LOGIN_TYPE } from './live-sessions';
import { userViewOf, type UserView } from './user-view';

export interface UserDetails extends UserView {
  readonly permissions: readonly string[];
  /** Whether a login is admitted now (enabled, or a timed ban that has ended). */
  readonly active: boolean;
  readonly disabledReason: string | null;
  /** End of a timed ban (ms since epoch), or null. */
  readonly disabledUntil: number | null;
  /** When failed logins stop locking the account (ms since epoch), or null when it is not locked. */
  readonly lockedUntil: number | null;
  readonly mustChangePassword: boolean;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly phone: string | null;
}

@injectable()
export class GetUser {
  static readonly reasons: readonly Reason[] = ['user-not-found', 'directory-unavailable', 'store-unavailable'];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(AccountLock) private readonly lock: AccountLock,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string }): Promise<UserDetails> {
    const user = await this.directory.findById(input.userId);
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    const lockedUntil = await this.lock.lockedUntil(ADMIN_LOGIN_TYPE, user.username);
    return {
      ...userViewOf(user),
      permissions: [...user.permissions],
      active: accountActive(user, this.clock.now()),
      disabledReason: user.enabled ? null : (user.disabledReason ?? null),
      disabledUntil: user.enabled ? null : (user.disabledUntil ?? null),
      lockedUntil,
      mustChangePassword: user.mustChangePassword === true,
      email: user.email ?? null,
      emailVerified: user.emailVerified === true,
      phone: user.phone ?? null,
    };
  }
}
