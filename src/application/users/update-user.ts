/**
 * Edits an admin account's profile (nickname, avatar, e-mail, phone), under the delegation rules
 * (src/application/users/delegation.ts: not one's own account, only one whose permissions the
 * caller holds). The live sessions of the account get the new nickname and avatar in their
 * snapshot at once (`GET /auth/me` shows them on the next request); roles and permissions are
 * untouched. A new e-mail address is unverified; the same address respelt keeps its mark.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { ProfileChange, UserAdministration } from '../ports/user-administration';
import type { DirectoryUser } from '../ports/user-directory';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { ADMIN_LOGIN_TYPE } from './live-sessions';
import { principalOf } from './principal';

export interface UpdateUserInput {
  readonly actor: Actor;
  readonly userId: string;
  readonly change: ProfileChange;
}

export interface UpdateUserOutput {
  readonly user: DirectoryUser;
  /** How many live sessions got the new profile in their snapshot. */
  readonly sessionsUpdated: number;
}

@injectable()
export class UpdateUser {
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    'user-not-found',
    'email-taken',
    'directory-read-only',
    'directory-unavailable',
    'store-unavailable',
  ];

  constructor(
    @inject(TOKENS.UserAdministration) private readonly administration: UserAdministration,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(Delegation) private readonly delegation: Delegation,
  ) {}

  async execute(input: UpdateUserInput): Promise<UpdateUserOutput> {
    await this.delegation.assertMayManage(input.actor, input.userId, 'edit');
    const r = await this.administration.updateProfile(input.userId, input.change);
    if (!r.ok) {
      if (r.reason === 'email-taken') {
        throw new DomainError('email-taken', r.detail, { errors: [{ pointer: '/email', detail: 'another account has this address' }] });
      }
      throw new DomainError('user-not-found', r.detail);
    }
    // Only the snapshot's profile changes: an account whose ban has lifted keeps its sessions.
    const sessionsUpdated = await this.managers.get(ADMIN_LOGIN_TYPE).updatePrincipal(r.user.id, principalOf(r.user));
    return { user: r.user, sessionsUpdated };
  }
}
