import { inject, injectable } from 'inversify';
import { DEFAULT_DEVICE_TYPE } from '../../domain/device-type';
import { DomainError, type Reason } from '../../domain/errors';
import type { ClientInfo, SessionRecord } from '../../domain/session';
import type { Logger } from '../ports/logger';
import type { Clock } from '../ports/clock';
import { accountActive, type DirectoryUser, type UserDirectory } from '../ports/user-directory';
import { RefreshTokenRegistry, type RefreshRecord } from '../session/refresh-token-registry';
import { SessionManagers, type SessionManager } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { RequiredActions } from '../mfa/required-actions';
import { principalOf } from '../users/principal';
import { IssueTokens, type TokenPair } from './issue-tokens';
import type { LoginType } from '../../domain/login-type';

const invalid = (): DomainError => new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
const reused = (): DomainError =>
  new DomainError('refresh-token-reused', 'The refresh token was already used; every session of this login was ended. Log in again.');

/**
 * Single use, rotated: the presented token is consumed atomically, the access token it was
 * issued with is logged out, and a new pair of the same family is issued with roles and
 * permissions reloaded from the directory. A token that was already rotated revokes its family;
 * so does one whose access token was replaced or kicked out, or whose family was born before
 * the user's "log out everywhere" cut-off, or that outlived its family's absolute lifetime (401
 * refresh-token-invalid). A token presented again within the reuse grace (REUSE_GRACE_MS, two
 * tabs refreshing at once) is refused as invalid without revoking, and logged as a warning with
 * its family id (never the token): a thief racing the owner inside the grace leaves a trace.
 *
 * Store round trips of a successful refresh, 7 in order: GET the family record; compare-and-set it
 * to "rotation under way" (one atomic script); then in parallel the access-token session read, the
 * cut-off GET (and the directory lookup); DEL the old access session (skipped when it is already
 * gone); create the new session; compare-and-set the family record to the new token and access
 * token (fails when the family was revoked meanwhile: the new session is ended); the cut-off GET.
 */
@injectable()
export class RefreshToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    'refresh-token-invalid',
    'refresh-token-reused',
    ...IssueTokens.reasons,
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(IssueTokens) private readonly issue: IssueTokens,
    @inject(TOKENS.Logger) private readonly log: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(RequiredActions) private readonly actions: RequiredActions,
  ) {}

  async execute(input: { loginType: LoginType; refreshToken: string; client: ClientInfo }): Promise<TokenPair> {
    const type = input.loginType;
    const consumed = await this.registry.consume(type, input.refreshToken);
    if (consumed.kind === 'invalid') throw invalid();
    if (consumed.kind === 'concurrent') {
      this.log.warn(
        { loginType: type, family: consumed.family },
        'refresh token presented again within the reuse grace: refused, family kept',
      );
      throw invalid();
    }
    if (consumed.kind === 'expired') {
      await this.registry.revokeFamily(type, consumed.family); // past its absolute lifetime: the family ends here
      throw invalid();
    }
    if (consumed.kind === 'reused') {
      await this.registry.revokeFamily(type, consumed.family);
      throw reused();
    }
    const { record } = consumed;
    const { user, previous } = await this.admit(this.managers.get(type), type, record);
    // A refresh is no re-authentication: the new session keeps when and how its user last proved
    // who they are (the previous session's, else the login's: the family's birth).
    const next = await this.issue
      .execute({
        loginType: type,
        principal: principalOf(user),
        // A refresh keeps its login's device type (whatever this request's User-Agent says).
        client: { ...input.client, deviceType: record.deviceType ?? DEFAULT_DEVICE_TYPE },
        family: record.family,
        rotation: consumed.rotation,
        requiredActions: await this.actions.of(type, user),
        authTime: previous?.authTime ?? previous?.createdAt ?? RefreshTokenRegistry.bornAt(record.family),
        amr: previous?.amr ?? ['pwd'],
      })
      .catch((e: unknown) => this.refused(type, record.family, e));
    // A reuse, logout, kick or "log out everywhere" revoked the family while we rotated (IssueTokens
    // ended the new session), or a concurrent login ended the new session before it was written
    // (over session.max-login-count): no refresh token came with it, and the family ends here.
    if (next.refreshToken === undefined) {
      await this.registry.revokeFamily(type, record.family);
      throw invalid();
    }
    // A "log out everywhere" may have cut the family off while we rotated: then the new pair dies.
    if (await this.registry.isCutOff(type, record)) {
      await this.registry.revokeFamily(type, record.family);
      throw invalid();
    }
    return next;
  }

  /**
   * session.is-concurrent=false with NEW_DEVICE: another login got in after this family's access
   * token lapsed and holds the account (409 already-logged-in); the family ends here, as the
   * refused login's would never have begun.
   */
  private async refused(type: LoginType, family: string, e: unknown): Promise<never> {
    if (e instanceof DomainError && e.reason === 'already-logged-in') await this.registry.revokeFamily(type, family);
    throw e;
  }

  /**
   * Whether the consumed token may mint a new pair; logs out the access token it was issued
   * with. The access token's state: a tombstone means the login was ended by someone else
   * (replaced under is-concurrent=false, or kicked out) and its refresh token must not bring it
   * back; expired, logged out or gone is fine (refreshing after the access token lapsed is what
   * refresh tokens are for). A family born before the user's cut-off is refused.
   */
  private async admit(
    manager: SessionManager,
    type: LoginType,
    record: RefreshRecord,
  ): Promise<{ user: DirectoryUser; previous: SessionRecord | null }> {
    const [access, user, cutOff] = await Promise.all([
      manager.stateOf(record.accessHash),
      this.directory.findById(record.userId),
      this.registry.isCutOff(type, record),
    ]);
    if (access !== null && access.state !== 'active') {
      await this.registry.revokeFamily(type, record.family, record.accessHash); // the tombstone keeps answering "replaced" / "kicked out"
      throw invalid();
    }
    if (cutOff) {
      await this.registry.revokeFamily(type, record.family);
      throw invalid();
    }
    if (access !== null) await manager.logoutByHash(record.accessHash);
    if (user === null || !accountActive(user, this.clock.now())) {
      await this.registry.revokeFamily(type, record.family);
      throw invalid();
    }
    return { user, previous: access?.state === 'active' ? access.record : null };
  }
}
