/**
 * Disables an admin account and ends every live session of it at once (ASVS 7.4.2), and every
 * refresh token and device cookie of it: re-enabling the account later does not bring any
 * earlier login, or any earlier device's exemption from the shared failure budget, back.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { AccountStore } from '../ports/account-store';
import { DeviceCookies } from '../auth/device-cookies';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';
import { ADMIN_LOGIN_TYPE, syncLiveSessions, type SessionSync } from './live-sessions';

export interface DisableUserOutput {
  readonly userId: string;
  readonly username: string;
  readonly enabled: false;
  readonly sessions: SessionSync;
}

@injectable()
export class DisableUser {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    'user-not-found',
    'directory-unavailable',
    'directory-read-only',
    'store-unavailable',
  ];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly refreshTokens: RefreshTokenRegistry,
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
  ) {}

  /** `actor`: the administrator asking (delegation rules: src/application/users/delegation.ts). */
  async execute(input: { readonly actor: Actor; readonly userId: string }): Promise<DisableUserOutput> {
    await this.delegation.assertMayManage(input.actor, input.userId, 'disable');
    const user = await this.accounts.setStatus(input.userId, { enabled: false, reason: null, until: null });
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    // The refresh-token cut-off first (a refresh in flight re-checks it after rotating): it also
    // reaches logins whose access token lapsed, which no session index lists any more.
    await this.refreshTokens.revokeAllOfUser(ADMIN_LOGIN_TYPE, user.id);
    // Its device cookies too: a re-enabled account starts without exemptions from the shared lock.
    await this.devices.revokeAll(ADMIN_LOGIN_TYPE, user.username);
    // Kicked out, not deleted: the tokens then say why they stopped working (token-kicked-out).
    const sessions = await syncLiveSessions(this.managers.get(ADMIN_LOGIN_TYPE), user.id, null);
    return { userId: user.id, username: user.username, enabled: false, sessions };
  }
}
