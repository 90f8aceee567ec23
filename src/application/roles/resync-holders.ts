/**
 * Brings the live sessions of every user of a role (or of every role holding a menu) in line with the directory at
 * once, after a change of the role's menus or status or of a menu: their permission snapshots are replaced, or the
 * sessions ended when the user is gone or disabled (ResyncUserSessions, one user after the other).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { ResyncUserSessions } from '../users/resync-user-sessions';

export interface HoldersSync {
  /** Live sessions whose permission snapshot was replaced. */
  readonly sessionsUpdated: number;
  /** Live sessions ended (their user is disabled or gone). */
  readonly sessionsEnded: number;
}

@injectable()
export class ResyncHolders {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ResyncUserSessions.reasons;

  constructor(@inject(ResyncUserSessions) private readonly resync: ResyncUserSessions) {}

  async execute(input: { readonly userIds: readonly string[] }): Promise<HoldersSync> {
    let sessionsUpdated = 0;
    let sessionsEnded = 0;
    for (const userId of new Set(input.userIds)) {
      const r = await this.resync.execute({ userId });
      if (r.action === 'updated') sessionsUpdated += r.sessions;
      else sessionsEnded += r.sessions;
    }
    return { sessionsUpdated, sessionsEnded };
  }
}
