/** What the CLI commands need from the application layer, and the login types they address. */
import type { ChainReport } from '../../application/audit/hash-chain';
import type { OnlineSession, SessionPage } from '../../application/auth/list-sessions';
import type { UserView } from '../../application/users/user-view';

export const LOGIN_TYPES = ['admin', 'web'] as const;
export type CliLoginType = (typeof LOGIN_TYPES)[number];

/** What the commands need from the application layer (built lazily: only for commands that use them). */
export interface CliDeps {
  hashPassword(password: string, cost: number): Promise<string>;
  /** Adds a user to the configured directory; returns it and where it went. */
  addUser(input: { username: string; password: string; nickname?: string; roles: string[] }): Promise<{ user: UserView; where: string }>;
  listSessions(type: CliLoginType, userId: string): Promise<OnlineSession[]>;
  /** A page of the user's live sessions (oldest first) and how many there are. */
  listSessionPage(type: CliLoginType, userId: string, page: number, size: number): Promise<SessionPage>;
  /** Ends (kicks out) the session with this token id; false when there is none. */
  kickoutToken(type: CliLoginType, tokenId: string): Promise<boolean>;
  /** Refuses every refresh token of the user (of one device type) issued before now (lapsed devices included). */
  revokeRefreshTokens(type: CliLoginType, userId: string, deviceType?: string): Promise<void>;
  /** Brings the user's live admin sessions in line with the directory (after direct database edits). */
  resync(userId: string): Promise<{ sessions: number; action: 'updated' | 'ended'; userFound: boolean }>;
  /** Removes the user's TOTP factor, recovery codes and passkeys and ends every login of the user. */
  resetMfa(
    type: CliLoginType,
    userId: string,
  ): Promise<{ username: string; totpRemoved: boolean; passkeysRemoved: number; sessionsEnded: number }>;
  /** Walks a stored audit log (svc.store=redis) checking its hash chain. */
  verifyAuditChain(type: CliLoginType, log: 'login' | 'operation', range: { from?: number; to?: number }): Promise<ChainReport>;
  close(): Promise<void>;
}
