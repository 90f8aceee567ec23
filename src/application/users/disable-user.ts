/**
 * Disables an admin account, for good or until a time (a timed ban lifts itself: logins are
 * admitted again from `until` on, with no one to call), with an optional reason administrators
 * see, and ends every login of it at once (ASVS 7.4.2): every live session, every refresh token
 * and every device cookie, so re-enabling the account later brings no earlier login, and no
 * earlier device's exemption from the shared failure budget, back.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { AccountStore } from '../ports/account-store';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { EndUserSessions } from './end-user-sessions';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

export interface DisableUserInput {
  /** The administrator asking (delegation rules: src/application/users/delegation.ts). */
  readonly actor: Actor;
  readonly userId: string;
  readonly reason?: string | null;
  /** End of a timed ban (ms since epoch); absent or null: until enabled again. */
  readonly until?: number | null;
}

export interface DisableUserOutput {
  readonly userId: string;
  readonly username: string;
  readonly enabled: false;
  readonly disabledReason: string | null;
  readonly disabledUntil: number | null;
  readonly sessionsEnded: number;
}

@injectable()
export class DisableUser {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    ...EndUserSessions.reasons,
    'validation-failed',
    'user-not-found',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(EndUserSessions) private readonly sessions: EndUserSessions,
  ) {}

  async execute(input: DisableUserInput): Promise<DisableUserOutput> {
    const until = input.until ?? null;
    if (until !== null && until <= this.clock.now()) {
      throw new DomainError('validation-failed', 'A ban must end in the future.', {
        errors: [{ pointer: '/until', detail: 'must be a time in the future (ISO-8601), or absent for no end' }],
      });
    }
    await this.delegation.assertMayManage(input.actor, input.userId, 'disable');
    const reason = input.reason ?? null;
    const user = await this.accounts.setStatus(input.userId, { enabled: false, reason, until });
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    // Kicked out, not deleted: the tokens then say why they stopped working (token-kicked-out).
    const sessionsEnded = await this.sessions.execute({ loginType: ADMIN_LOGIN_TYPE, userId: user.id, username: user.username });
    return { userId: user.id, username: user.username, enabled: false, disabledReason: reason, disabledUntil: until, sessionsEnded };
  }
}
