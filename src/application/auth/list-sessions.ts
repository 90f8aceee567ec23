import { inject, injectable } from 'inversify';
import type { ListedSession } from '../ports/session-store';
import { sessionDeviceType } from '../../domain/device-type';
import { SessionManagers } from '../session/session-manager';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import { DomainError, type Reason } from '../../domain/errors';
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

/** Sessions per page at most (as the online list). */
export const MAX_PAGE_SIZE = 500;

export interface SessionPageInput {
  readonly loginType: LoginType;
  readonly userId: string;
  /** From 1. */
  readonly page: number;
  /** 1 to MAX_PAGE_SIZE. */
  readonly size: number;
  /** Only the sessions of this device type. */
  readonly deviceType?: string;
}

/** A page of one user's sessions: `total` is exact (every live session of the user, of the device type when given). */
export interface SessionPage {
  readonly list: OnlineSession[];
  readonly total: number;
  readonly page: number;
  readonly size: number;
}

/**
 * One user's live sessions of a login type, oldest first (the user's own list, the CLI's `sessions list`): `page`, a
 * page of them and their count (SessionStore.listUserPage: what it costs is the page, not the user's session count);
 * `execute`, all of them (what ends them all walks them).
 */
@injectable()
export class ListSessions {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['validation-failed', 'store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async page(input: SessionPageInput): Promise<SessionPage> {
    const { page, size } = input;
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
      throw new DomainError('validation-failed', `page is from 1, size from 1 to ${MAX_PAGE_SIZE}.`, {
        errors: [{ pointer: '/query/size', detail: `page >= 1, 1 <= size <= ${MAX_PAGE_SIZE}` }],
      });
    }
    const query = { offset: (page - 1) * size, limit: size, ...(input.deviceType !== undefined ? { deviceType: input.deviceType } : {}) };
    const found = await this.managers.get(input.loginType).listSessionPage(input.userId, query);
    const tz = this.settings.timeZone;
    return { list: found.sessions.map((s) => sessionRowOf(s, tz)), total: found.total, page, size };
  }

  async execute(input: { loginType: LoginType; userId: string }): Promise<OnlineSession[]> {
    const list = await this.managers.get(input.loginType).listSessions(input.userId);
    return list.map((s) => sessionRowOf(s, this.settings.timeZone));
  }
}
