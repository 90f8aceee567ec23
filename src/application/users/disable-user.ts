/** Disables an admin account and ends every live session of it at once (ASVS 7.4.2). */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { UserAdministration } from '../ports/user-administration';
import type { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { ADMIN_LOGIN_TYPE, syncLiveSessions, type SessionSync } from './live-sessions';
import { USER_TOKENS } from './tokens';

export interface DisableUserOutput {
  readonly userId: string;
  readonly username: string;
  readonly enabled: false;
  readonly sessions: SessionSync;
}

@injectable()
export class DisableUser {
  constructor(
    @inject(USER_TOKENS.UserAdministration) private readonly administration: UserAdministration,
    @inject(TOKENS.SessionManagers) private readonly managers: SessionManagers,
  ) {}

  async execute(input: { readonly userId: string }): Promise<DisableUserOutput> {
    const r = await this.administration.setEnabled(input.userId, false);
    if (!r.ok) throw new DomainError('user-not-found', r.detail);
    // Kicked out, not deleted: the tokens then say why they stopped working (token-kicked-out).
    const sessions = await syncLiveSessions(this.managers.get(ADMIN_LOGIN_TYPE), r.user.id, null);
    return { userId: r.user.id, username: r.user.username, enabled: false, sessions };
  }
}
