/**
 * Deletes an admin account, under the delegation rules (not one's own account, only one whose
 * permissions the caller holds, dormant ones included), and every login of it:
 *
 * 1. its logins end (EndUserSessions: the refresh cut-off, device cookies, live sessions kicked
 *    out: their tokens answer token-kicked-out) while the account still exists, so a failure
 *    here leaves the account in place and the call can simply be repeated;
 * 2. the account goes, with its role links and password history (its id is never reused);
 * 3. a login that raced between 1 and 2 is kicked out too, and the account's second factors
 *    (TOTP, passkeys) are removed: nothing of it can sign anyone in again.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { PasskeyStore } from '../ports/passkey-store';
import type { TotpStore } from '../ports/totp-store';
import type { UserAdministration } from '../ports/user-administration';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { EndUserSessions } from './end-user-sessions';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

export interface DeleteUserOutput {
  readonly userId: string;
  readonly username: string;
  readonly deleted: true;
  readonly sessionsEnded: number;
}

@injectable()
export class DeleteUser {
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    ...EndUserSessions.reasons,
    'user-not-found',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.UserAdministration) private readonly administration: UserAdministration,
    @inject(TOKENS.TotpStore) private readonly totp: TotpStore,
    @inject(TOKENS.PasskeyStore) private readonly passkeys: PasskeyStore,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(EndUserSessions) private readonly sessions: EndUserSessions,
  ) {}

  async execute(input: { readonly actor: Actor; readonly userId: string }): Promise<DeleteUserOutput> {
    const target = await this.delegation.assertMayManage(input.actor, input.userId, 'delete');
    const type = ADMIN_LOGIN_TYPE;
    const ended = await this.sessions.execute({ loginType: type, userId: target.id, username: target.username });
    const deleted = await this.administration.deleteUser(target.id);
    if (deleted === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    const raced = await this.managers.get(type).kickoutUser(target.id);
    await this.totp.remove(type, target.id);
    for (const p of await this.passkeys.list(type, target.id)) await this.passkeys.remove(type, target.id, p.id);
    return { userId: deleted.id, username: deleted.username, deleted: true, sessionsEnded: ended + raced };
  }
}
