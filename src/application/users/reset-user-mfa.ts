/**
 * An administrator resets an account's second factors (`DELETE /system/user/{id}/mfa`): its TOTP factor, recovery
 * codes and pending setup, and every passkey, are removed; then every login of the account ends. For an owner who lost
 * both the authenticator and the recovery codes (else locked out for good), and after a takeover (a password reset
 * alone leaves the attacker's passkey or TOTP in place). The account then logs in with its password alone, restricted
 * to enrolling a factor where a role of it requires one (svc.mfa.required-roles). The delegation rules of a password
 * reset apply (not one's own account, nor one holding what the caller does not). Running it again finishes what a
 * failure left (the factors go first, so a session made meanwhile is still ended). An operator's CLI
 * (`authguard users reset-mfa`) resets an admin user or a member the same way, without an actor (`byOperator`).
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { TotpFactors } from '../mfa/totp-factors';
import type { PasskeyStore } from '../ports/passkey-store';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { EndUserSessions } from './end-user-sessions';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

export interface ResetUserMfaOutput {
  readonly userId: string;
  readonly username: string;
  /** Whether a TOTP factor was active (its recovery codes went with it). */
  readonly totpRemoved: boolean;
  readonly passkeysRemoved: number;
  readonly sessionsEnded: number;
}

@injectable()
export class ResetUserMfa {
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    ...EndUserSessions.reasons,
    'directory-unavailable',
    'directory-read-only',
  ];

  constructor(
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(TotpFactors) private readonly totp: TotpFactors,
    @inject(TOKENS.PasskeyStore) private readonly passkeys: PasskeyStore,
    @inject(EndUserSessions) private readonly sessions: EndUserSessions,
    @inject(TOKENS.AdminDirectory) private readonly admins: UserDirectory,
    @inject(TOKENS.MemberDirectory) private readonly members: UserDirectory,
  ) {}

  /** An administrator's reset of an admin user (the delegation rules apply). */
  async execute(input: { readonly actor: Actor; readonly userId: string }): Promise<ResetUserMfaOutput> {
    const target = await this.delegation.assertMayManage(input.actor, input.userId, 'manage');
    return this.reset(ADMIN_LOGIN_TYPE, target);
  }

  /** An operator's reset (the CLI), of an admin user or a member; an unknown id is `user-not-found`. */
  async byOperator(loginType: LoginType, userId: string): Promise<ResetUserMfaOutput> {
    const target = await (loginType === ADMIN_LOGIN_TYPE ? this.admins : this.members).findById(userId);
    if (target === null) throw new DomainError('user-not-found', `No ${loginType} user with id "${userId}".`);
    return this.reset(loginType, target);
  }

  private async reset(loginType: LoginType, target: { readonly id: string; readonly username: string }): Promise<ResetUserMfaOutput> {
    const totpRemoved = await this.totp.remove(loginType, target.id);
    let passkeysRemoved = 0;
    for (const p of await this.passkeys.list(loginType, target.id))
      if (await this.passkeys.remove(loginType, target.id, p.id)) passkeysRemoved++;
    const sessionsEnded = await this.sessions.execute({ loginType, userId: target.id, username: target.username });
    return { userId: target.id, username: target.username, totpRemoved, passkeysRemoved, sessionsEnded };
  }
}
