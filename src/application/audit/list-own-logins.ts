/**
 * A user's own recent logins (successes and failures, the newest first), as they see them: when,
 * from where (IP, OS, browser) and whether it is the session they are using now. Failures are the
 * attempts on their username, whoever made them: what a user needs to notice someone guessing.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuditStore } from '../ports/audit-store';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { EventOutcome } from './security-event';
import type { AuthSettings } from '../auth/auth-settings';

export interface OwnLogin {
  readonly time: string;
  readonly outcome: EventOutcome;
  readonly reason: string | null;
  readonly ip: string | null;
  readonly os: string | null;
  readonly browser: string | null;
  readonly deviceType: string | null;
  /** This login made the session the caller is using. */
  readonly current: boolean;
}

@injectable()
export class ListOwnLogins {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.AuditStore) private readonly store: AuditStore,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async execute(input: { loginType: LoginType; username: string; tokenId: string; limit: number }): Promise<OwnLogin[]> {
    const page = await this.store.query({
      loginType: input.loginType,
      log: 'login',
      types: ['login'],
      username: input.username,
      limit: input.limit,
    });
    return page.list.map((e) => ({
      time: formatDateTime(e.time, this.settings.timeZone),
      outcome: e.outcome,
      reason: e.reason ?? null,
      ip: e.ip ?? null,
      os: e.userAgent?.os ?? null,
      browser: e.userAgent?.browser ?? null,
      deviceType: e.userAgent?.deviceType ?? null,
      current: e.outcome === 'success' && e.tokenId !== undefined && e.tokenId === input.tokenId,
    }));
  }
}
