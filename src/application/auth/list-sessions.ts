import { inject, injectable } from 'inversify';
import type { ListedSession } from '../ports/session-store';
import { sessionDeviceType } from '../../domain/device-type';
import { SessionManagers } from '../session/session-manager';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

/** A live session as the online list, a user's own session list and the CLI show it. */
export interface OnlineSession {
  readonly tokenId: string;
  readonly userId: string;
  readonly username: string;
  readonly loginType: LoginType;
  readonly loginTime: string;
  readonly lastActiveTime: string;
  readonly expires: string | null;
  readonly ipaddr: string;
  readonly userAgent: string;
  /** Read from the User-Agent once, at login; `unknown` for a session from before that (or without a User-Agent). */
  readonly os: string;
  readonly browser: string;
  /** The login's device type (its body's, else from the User-Agent at login; `DEF` for a session older than device types). */
  readonly deviceType: string;
}

/** The row of a listed session, its times in `timeZone` (one cached formatter per zone: shared/date-time.ts). */
export function sessionRowOf(s: ListedSession, timeZone: string): OnlineSession {
  const { record } = s;
  const client = record.client;
  return {
    tokenId: s.record.tokenId,
    userId: record.principal.userId,
    username: record.principal.username,
    loginType: record.loginType,
    loginTime: formatDateTime(record.createdAt, timeZone),
    lastActiveTime: formatDateTime(s.lastActiveAt, timeZone),
    expires: record.expiresAt === null ? null : formatDateTime(record.expiresAt, timeZone),
    ipaddr: client.ip ?? '',
    userAgent: client.userAgent ?? '',
    os: client.os ?? 'unknown',
    browser: client.browser ?? 'unknown',
    deviceType: sessionDeviceType(record),
  };
}

/** One user's live sessions of a login type, oldest first (the user's own list, the CLI's `sessions list`). */
@injectable()
export class ListSessions {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async execute(input: { loginType: LoginType; userId: string }): Promise<OnlineSession[]> {
    const list = await this.managers.get(input.loginType).listSessions(input.userId);
    return list.map((s) => sessionRowOf(s, this.settings.timeZone));
  }
}
