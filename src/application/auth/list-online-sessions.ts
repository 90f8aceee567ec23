/**
 * The online list (`GET /monitor/online`): a page of a login type's live sessions, oldest first,
 * optionally only one user's (`username`, exact in any case: through the per-user index, paged by
 * the store, SessionStore.listUserPage, so the cost is that user's page, whatever the total; with an
 * `ip` too, that user's sessions), only one client IP (`ip`, exact) and only
 * one device type (`deviceType`, exact): a bounded scan of the online index, SCAN_LIMIT entries at
 * most. Deep pages are bounded too: page × size may not pass DEEP_PAGE_LIMIT (narrow the list with
 * a filter instead). What `total` counts, and
 * when it is exact: OnlinePage (src/application/ports/session-store.ts), docs/sessions.md.
 */
import { inject, injectable } from 'inversify';
import { deviceTypeOf } from '../../domain/device-type';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { ListedSession } from '../ports/session-store';
import type { UserDirectory } from '../ports/user-directory';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import { sessionRowOf, type OnlineSession } from './list-sessions';

/** page × size at most: the sessions a page may reach past (on a cluster, index entries merged to skip). */
export const DEEP_PAGE_LIMIT = 10_000;
/** Index entries an IP filter reads at most. */
export const SCAN_LIMIT = 10_000;
/** Without a filter, `total` is counted exactly up to this many index entries (each read); past it, the index's size. */
export const EXACT_COUNT_UP_TO = 1_000;

export interface OnlineListInput {
  readonly loginType: LoginType;
  readonly page: number;
  readonly size: number;
  readonly username?: string;
  readonly ip?: string;
  readonly deviceType?: string;
}

export interface OnlineList {
  readonly list: OnlineSession[];
  readonly total: number;
  readonly totalExact: boolean;
  readonly page: number;
  readonly size: number;
}

@injectable()
export class ListOnlineSessions {
  static readonly reasons: readonly Reason[] = ['validation-failed', 'store-unavailable', 'directory-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.AdminDirectory) private readonly admins: UserDirectory,
    @inject(TOKENS.MemberDirectory) private readonly members: UserDirectory,
  ) {}

  async execute(input: OnlineListInput): Promise<OnlineList> {
    const { page, size } = input;
    if (page * size > DEEP_PAGE_LIMIT) {
      throw new DomainError('validation-failed', `A page may reach ${DEEP_PAGE_LIMIT} sessions deep at most; filter by username or ip.`, {
        errors: [{ pointer: '/query/page', detail: `page × size must be at most ${DEEP_PAGE_LIMIT}` }],
      });
    }
    const offset = (page - 1) * size;
    const manager = this.managers.get(input.loginType);
    let found: { sessions: ListedSession[]; total: number; totalExact: boolean };
    if (input.username !== undefined && input.ip === undefined) {
      // One user's page, paged by the store (only the page's sessions are read, whatever the user's count).
      const user = await (input.loginType === 'admin' ? this.admins : this.members).findByUsername(input.username);
      const q = { offset, limit: size, ...(input.deviceType !== undefined ? { deviceType: input.deviceType } : {}) };
      const own = user === null ? { sessions: [], total: 0 } : await manager.listUserPage(user.id, q);
      found = { sessions: own.sessions, total: own.total, totalExact: true };
    } else if (input.username !== undefined) {
      const user = await (input.loginType === 'admin' ? this.admins : this.members).findByUsername(input.username);
      const own = user === null ? [] : await manager.listSessions(user.id);
      const matching = own.filter(
        (s) =>
          (input.ip === undefined || s.record.client.ip === input.ip) &&
          (input.deviceType === undefined || deviceTypeOf(s.record.client) === input.deviceType),
      );
      found = { sessions: matching.slice(offset, offset + size), total: matching.length, totalExact: true };
    } else {
      const query = { offset, limit: size, scanLimit: SCAN_LIMIT, exactCountUpTo: EXACT_COUNT_UP_TO };
      found = await manager.listPage({
        ...query,
        ...(input.ip !== undefined ? { ip: input.ip } : {}),
        ...(input.deviceType !== undefined ? { deviceType: input.deviceType } : {}),
      });
    }
    const tz = this.settings.timeZone;
    return { list: found.sessions.map((s) => sessionRowOf(s, tz)), total: found.total, totalExact: found.totalExact, page, size };
  }
}
