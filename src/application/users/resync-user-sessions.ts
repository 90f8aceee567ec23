/**
 * Re-reads a user from the directory and brings their live sessions in line: after roles, menus
 * or the enabled flag were changed directly in the database (`sessions resync <userId>`).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { UserDirectory } from '../ports/user-directory';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { ADMIN_LOGIN_TYPE, syncLiveSessions, type SessionSync } from './live-sessions';

@injectable()
export class ResyncUserSessions {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['directory-unavailable', 'store-unavailable'];

  constructor(
    @inject(TOKENS.AdminDirectory) private readonly directory: UserDirectory,
    @inject(SessionManagers) private readonly managers: SessionManagers,
  ) {}

  async execute(input: { readonly userId: string }): Promise<SessionSync & { readonly userFound: boolean }> {
    const user = await this.directory.findById(input.userId);
    const sync = await syncLiveSessions(this.managers.get(ADMIN_LOGIN_TYPE), input.userId, user);
    return { ...sync, userFound: user !== null };
  }
}
