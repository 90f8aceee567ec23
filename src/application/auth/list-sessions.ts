import { inject, injectable } from 'inversify';
import { SessionManagers } from '../session/session-manager';
import { tokenIdOf } from '../session/session-token';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

export interface OnlineSession {
  readonly tokenId: string;
  readonly userId: string;
  readonly username: string;
  readonly loginTime: string;
  readonly lastActiveTime: string;
  readonly expires: string | null;
  readonly ipaddr: string;
  readonly userAgent: string;
}

@injectable()
export class ListSessions {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /** Live sessions of a login type (all of them, or one user's), oldest first. */
  async execute(input: { loginType: LoginType; userId?: string; limit?: number }): Promise<OnlineSession[]> {
    const m = this.managers.get(input.loginType);
    const list = input.userId === undefined ? await m.listAll(input.limit ?? 1000) : await m.listSessions(input.userId);
    const tz = this.settings.timeZone;
    return list.map((s) => ({
      tokenId: tokenIdOf(s.tokenHash),
      userId: s.record.principal.userId,
      username: s.record.principal.username,
      loginTime: formatDateTime(s.record.createdAt, tz),
      lastActiveTime: formatDateTime(s.lastActiveAt, tz),
      expires: s.record.expiresAt === null ? null : formatDateTime(s.record.expiresAt, tz),
      ipaddr: s.record.client.ip ?? '',
      userAgent: s.record.client.userAgent ?? '',
    }));
  }
}
