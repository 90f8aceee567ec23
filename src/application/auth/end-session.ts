import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import type { LoginType } from '../../domain/login-type';

@injectable()
export class EndSession {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['not-found', 'store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
  ) {}

  /**
   * Ends one session by its short token id. `kick` (admin force logout): its token then answers
   * "kicked out"; otherwise (a user ending one of their own devices) it is logged out. Either way
   * the refresh-token family is revoked, so it cannot mint a new session. `ownerId` limits
   * the search to that user's sessions (a user can only end their own): found by its token id, not
   * by listing the user's sessions (the cost does not grow with them).
   */
  async execute(input: { loginType: LoginType; tokenId: string; kick: boolean; ownerId?: string }): Promise<void> {
    const manager = this.managers.get(input.loginType);
    let hash: string | null;
    let recorded: string | undefined;
    if (input.ownerId === undefined) {
      hash = await manager.findByTokenId(input.tokenId);
      // The record names its refresh family (no access-token index is kept for it).
      const stored = hash === null ? null : await manager.stateOf(hash);
      recorded = stored?.state === 'active' ? stored.record.attrs.rtFamily : undefined;
    } else {
      const own = await manager.findOwnSession(input.ownerId, input.tokenId);
      [hash, recorded] = [own?.tokenHash ?? null, own?.record.attrs.rtFamily];
    }
    if (hash === null) throw new DomainError('not-found', 'No live session has this token id.');
    const family = await this.registry.familyOfSession(input.loginType, hash, recorded);
    // Revoked (marker first), not just deleted: a refresh racing this call cannot keep a session.
    // The ended token itself is left to the kick / logout below.
    if (family !== null) await this.registry.revokeFamily(input.loginType, family, hash);
    if (input.kick) await manager.kickoutByHash(hash);
    else await manager.logoutByHash(hash);
  }
}
