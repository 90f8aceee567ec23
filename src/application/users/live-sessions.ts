/**
 * Sessions carry a snapshot of the user's roles and permissions (one store round trip per
 * request). When the directory changes, the snapshot of every live admin session is replaced at
 * once, or the sessions are ended when the account is gone or disabled.
 */
import type { DirectoryUser } from '../ports/user-directory';
import type { SessionManager } from '../session/session-manager';
import { principalOf } from './principal';

/** The login type whose sessions follow the admin directory. */
export const ADMIN_LOGIN_TYPE = 'admin';

export interface SessionSync {
  /** `updated`: snapshots replaced; `ended`: sessions kicked out (user disabled or gone). */
  readonly action: 'updated' | 'ended';
  readonly sessions: number;
}

/** Brings every live session of `userId` in line with `user` (null: no such user any more). */
export async function syncLiveSessions(manager: SessionManager, userId: string, user: DirectoryUser | null): Promise<SessionSync> {
  if (user === null || !user.enabled) return { action: 'ended', sessions: await manager.kickoutUser(userId) };
  return { action: 'updated', sessions: await manager.updatePrincipal(userId, principalOf(user)) };
}
