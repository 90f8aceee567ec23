/**
 * Ends every login of an account at once (password reset, disable): the refresh cut-off first (it
 * reaches logins whose access token lapsed, which no index lists, and a refresh in flight re-checks
 * it after rotating), then the device cookies (their holders share the account's failure budget
 * again), then the refresh families of the live sessions (their records deleted), then the live
 * sessions, kicked out (tombstones: their tokens answer token-kicked-out).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { DeviceCookies } from '../auth/device-cookies';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';

@injectable()
export class EndUserSessions {
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly refreshTokens: RefreshTokenRegistry,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
  ) {}

  /**
   * Returns how many live sessions were ended. With `deviceType` only that device type's logins end
   * (its refresh cut-off, its sessions); the device cookies, the account's, stay.
   */
  async execute(input: {
    readonly loginType: LoginType;
    readonly userId: string;
    readonly username: string;
    readonly deviceType?: string | undefined;
  }): Promise<number> {
    const manager = this.managers.get(input.loginType);
    if (input.deviceType !== undefined) {
      await this.refreshTokens.revokeDeviceOfUser(input.loginType, input.userId, input.deviceType);
    } else {
      await this.refreshTokens.revokeAllOfUser(input.loginType, input.userId);
      await this.devices.revokeAll(input.loginType, input.username);
    }
    // The refresh families of the live sessions are deleted (the cut-off already refuses them:
    // this frees their records now rather than at their TTL); the sessions are kicked out below.
    await this.refreshTokens.revokeFamiliesOfSessions(input.loginType, await manager.listSessions(input.userId, input.deviceType));
    return manager.kickoutUser(input.userId, input.deviceType);
  }
}
