import { inject, injectable } from 'inversify';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

@injectable()
export class Logout {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
  ) {}

  /**
   * Logs out the current token and revokes its refresh-token family (the marker, not just a
   * delete: a refresh that consumed the family's token while this logout ran ends what it minted).
   */
  async execute(input: { loginType: LoginType; tokenHash: string; family?: string | undefined }): Promise<void> {
    await this.managers.get(input.loginType).logoutByHash(input.tokenHash);
    if (input.family !== undefined) await this.registry.revokeFamily(input.loginType, input.family);
  }
}
