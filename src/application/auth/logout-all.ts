import { inject, injectable } from 'inversify';
import { DeviceCookies } from './device-cookies';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import { BackgroundWork } from '../shared/background-work';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

/**
 * Refresh families revoked in parallel at most (each a few round trips); the loop is yielded between
 * chunks. A logout-all of more sessions than this revokes them in the background (BackgroundWork).
 */
const FAMILY_CHUNK = 250;

@injectable()
export class LogoutAll {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
    @inject(BackgroundWork) private readonly background: BackgroundWork,
  ) {}

  /**
   * "Log out everywhere" (ASVS 7.4.3): every session of the user ends, every refresh token of
   * theirs issued before now is refused (the per-user cut-off) and the family of each live session
   * is revoked, so no refresh token of theirs can mint a new session (a refresh racing with this
   * call dies too: RefreshToken checks the revocation and the cut-off after it rotates).
   * Every device cookie of the account issued until now stops exempting its holder from the
   * account's shared failure budget. Returns how many sessions were live.
   *
   * With `deviceType`, only the sessions of that device type end, with their refresh families
   * (the cut-off is that device type's); the other sessions and the device cookies (which belong
   * to the account, not to a device type) stay.
   */
  async execute(input: { loginType: LoginType; userId: string; username: string; deviceType?: string | undefined }): Promise<number> {
    const manager = this.managers.get(input.loginType);
    const { loginType, userId, deviceType } = input;
    // First the cut-off: it reaches every family of the user (of the device type), including those
    // of devices whose access token lapsed (no longer listed), and a refresh in flight re-checks it
    // after rotating.
    if (deviceType === undefined) {
      await this.devices.revokeAll(loginType, input.username);
      await this.registry.revokeAllOfUser(loginType, userId);
    } else {
      await this.registry.revokeDeviceOfUser(loginType, userId, deviceType);
    }
    // The sessions end in bulk (SessionManager.logoutSessions: chunks, the loop yielded between
    // them) while their families are revoked in bounded parallel chunks (the refresh token and
    // family records go; the listed session itself is left to the bulk end). The cut-off above
    // already refuses every family of theirs, so neither order lets one refresh, and with more than
    // FAMILY_CHUNK sessions the revocations (a cleanup by then) run in the background, after the answer.
    const sessions = await manager.listSessions(userId, deviceType);
    const revokeFamilies = () => this.registry.revokeFamiliesOfSessions(loginType, sessions);
    if (sessions.length > FAMILY_CHUNK) {
      await manager.logoutSessions(sessions);
      this.background.run('logout-all: revoke the refresh families', revokeFamilies);
    } else {
      await Promise.all([manager.logoutSessions(sessions), revokeFamilies()]);
    }
    return sessions.length;
  }
}
