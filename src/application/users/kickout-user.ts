/**
 * Ends every login of an admin account at once, the account itself untouched (`POST
 * /system/user/{id}/kickout`; the CLI's `sessions kickout admin <userId>`): the same cut as a
 * disable (EndUserSessions: refresh tokens refused, device cookies revoked, live sessions kicked
 * out, their tokens answering token-kicked-out), after which the user may log in again.
 *
 * Like the kickout of one session (`DELETE /monitor/online/{tokenId}`), it needs the kickout
 * permission only, not the delegation rules: it takes nothing from the account and grants the
 * caller nothing (docs/integration-admin.md). The caller's own account is refused: that is
 * logging out, which the caller's own session routes do.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import type { Actor } from './delegation';
import { EndUserSessions } from './end-user-sessions';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

export interface KickoutUserOutput {
  readonly userId: string;
  readonly username: string;
  readonly sessionsEnded: number;
}

@injectable()
export class KickoutUser {
  static readonly reasons: readonly Reason[] = [...EndUserSessions.reasons, 'delegation-denied', 'user-not-found', 'directory-unavailable'];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(EndUserSessions) private readonly sessions: EndUserSessions,
  ) {}

  /** `deviceType`: only the logins of that device type end (their sessions and refresh tokens). */
  async execute(input: {
    readonly actor: Actor;
    readonly userId: string;
    readonly deviceType?: string | undefined;
  }): Promise<KickoutUserOutput> {
    if (input.userId === input.actor.userId) {
      throw new DomainError('delegation-denied', 'You cannot kick your own account out here; log out (POST /auth/logout) instead.');
    }
    const user = await this.directory.findById(input.userId);
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    const sessionsEnded = await this.sessions.execute({
      loginType: ADMIN_LOGIN_TYPE,
      userId: user.id,
      username: user.username,
      deviceType: input.deviceType,
    });
    return { userId: user.id, username: user.username, sessionsEnded };
  }
}
