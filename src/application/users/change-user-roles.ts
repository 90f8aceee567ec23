/** Replaces an admin user's roles, then the permission snapshot of each of their live sessions. */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { UserAdministration } from '../ports/user-administration';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { ADMIN_LOGIN_TYPE, syncLiveSessions, type SessionSync } from './live-sessions';

export interface ChangeUserRolesInput {
  /** The administrator asking (delegation rules: src/application/users/delegation.ts). */
  readonly actor: Actor;
  readonly userId: string;
  readonly roles: readonly string[];
}

export interface UserAccessView {
  readonly userId: string;
  readonly username: string;
  readonly enabled: boolean;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
}

export interface ChangeUserRolesOutput {
  readonly user: UserAccessView;
  readonly sessions: SessionSync;
}

@injectable()
export class ChangeUserRoles {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    'user-not-found',
    'validation-failed',
    'directory-unavailable',
    'directory-read-only',
    'store-unavailable',
  ];

  constructor(
    @inject(TOKENS.UserAdministration) private readonly administration: UserAdministration,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(Delegation) private readonly delegation: Delegation,
  ) {}

  async execute(input: ChangeUserRolesInput): Promise<ChangeUserRolesOutput> {
    await this.delegation.assertMayManage(input.actor, input.userId, 'change the roles of');
    await this.delegation.assertMayGrant(input.actor, input.roles);
    const r = await this.administration.setRoles(input.userId, input.roles);
    if (!r.ok) {
      if (r.reason === 'user-not-found') throw new DomainError('user-not-found', r.detail);
      throw new DomainError('validation-failed', r.detail, { errors: [{ pointer: '/roles', detail: r.detail }] });
    }
    const sessions = await syncLiveSessions(this.managers.get(ADMIN_LOGIN_TYPE), r.user.id, r.user);
    const u = r.user;
    return { user: { userId: u.id, username: u.username, enabled: u.enabled, roles: u.roles, permissions: u.permissions }, sessions };
  }
}
