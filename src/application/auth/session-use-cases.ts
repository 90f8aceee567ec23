/** Refresh, logout and session administration, for either login type. */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { ClientInfo } from '../../domain/session';
import type { UserDirectory } from '../ports/user-directory';
import { tokenIdOf, type SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import { formatDateTime } from './format';
import { IssueTokens, principalOf, type TokenPair } from './login';

@injectable()
export class RefreshToken {
  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(IssueTokens) private readonly issue: IssueTokens,
  ) {}

  /**
   * Single use, rotated: the presented token is consumed atomically, the access token it was
   * issued with is logged out, and a new pair of the same family is issued with roles and
   * permissions reloaded from the directory. A token that was already rotated revokes its family;
   * so does one whose access token was replaced or kicked out, or whose family was born before
   * the user's "log out everywhere" cut-off (401 refresh-token-invalid).
   *
   * Store round trips of a successful refresh, in order: GETDEL refresh record, SET used marker;
   * then in parallel the access-token session read, the cut-off GET (and the directory lookup);
   * DEL the old access session (skipped when it is already gone); create the new session; the
   * three SETs of the new refresh token; then in parallel the revocation-marker and cut-off GETs.
   * 10 store commands, 9 sequential steps.
   */
  async execute(input: { loginType: string; refreshToken: string; client: ClientInfo }): Promise<TokenPair> {
    const registry = this.issue.registry;
    const manager = this.issue.manager(input.loginType);
    const consumed = await registry.consume(input.loginType, input.refreshToken);
    if (consumed.kind === 'invalid') throw new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
    if (consumed.kind === 'reused') {
      await registry.revokeFamily(manager, consumed.family);
      throw new DomainError('refresh-token-reused', 'The refresh token was already used; every session of this login was ended. Log in again.');
    }
    const { record } = consumed;
    // The access token this refresh token was issued with: a tombstone means the login was ended
    // by someone else (replaced by a newer login under is-concurrent=false, or kicked out), and
    // its refresh token must not bring it back. Expired or logged out (or gone) is fine: refreshing
    // after the access token lapsed is what refresh tokens are for.
    // The user's "log out everywhere" cut-off: a family born before it is refused.
    const [access, user, cutOff] = await Promise.all([
      manager.stateOf(record.a),
      this.directory.findById(record.u),
      registry.isCutOff(input.loginType, record.u, record.f),
    ]);
    if (access !== null && access.state !== 'active') {
      await registry.revokeFamily(manager, record.f, record.a); // the tombstone keeps answering "replaced" / "kicked out"
      throw new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
    }
    if (cutOff) {
      await registry.revokeFamily(manager, record.f);
      throw new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
    }
    if (access !== null) await manager.logoutByHash(record.a);
    if (user === null || !user.enabled) {
      await registry.revokeFamily(manager, record.f);
      throw new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
    }
    const next = await this.issue.execute({ loginType: input.loginType, principal: principalOf(user), client: input.client, family: record.f });
    // A reuse, logout, kick or "log out everywhere" may have revoked the family while we rotated:
    // then the new pair dies with it.
    const [revoked, cutNow] = await Promise.all([registry.isRevoked(input.loginType, record.f), registry.isCutOff(input.loginType, record.u, record.f)]);
    if (revoked || cutNow) {
      await registry.revokeFamily(manager, record.f);
      if (cutNow && !revoked) throw new DomainError('refresh-token-invalid', 'The refresh token is not valid; log in again.');
      throw new DomainError('refresh-token-reused', 'The refresh token was already used; every session of this login was ended. Log in again.');
    }
    return { accessToken: next.accessToken, refreshToken: next.refreshToken, expires: next.expires };
  }
}

@injectable()
export class Logout {
  constructor(@inject(IssueTokens) private readonly issue: IssueTokens) {}

  /**
   * Logs out the current token and revokes its refresh-token family (the marker, not just a
   * delete: a refresh that consumed the family's token while this logout ran ends what it minted).
   */
  async execute(input: { loginType: string; tokenHash: string; family?: string | undefined }): Promise<void> {
    const manager = this.issue.manager(input.loginType);
    await manager.logoutByHash(input.tokenHash);
    if (input.family !== undefined) await this.issue.registry.revokeFamily(manager, input.family);
  }
}

export interface OnlineSession {
  readonly tokenId: string;
  readonly userId: string;
  readonly username: string;
  readonly loginTime: string;
  readonly lastActiveTime: string;
  readonly expires: string | null;
  readonly ipaddr: string;
  readonly userAgent: string;
}

@injectable()
export class ListSessions {
  constructor(
    @inject(TOKENS.SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /** Live sessions of a login type (all of them, or one user's), oldest first. */
  async execute(input: { loginType: string; userId?: string; limit?: number }): Promise<OnlineSession[]> {
    const m = this.managers.get(input.loginType);
    const list = input.userId === undefined ? await m.listAll(input.limit ?? 1000) : await m.listSessions(input.userId);
    const tz = this.settings.timeZone;
    return list.map((s) => ({
      tokenId: tokenIdOf(s.tokenHash),
      userId: s.record.principal.userId,
      username: s.record.principal.username,
      loginTime: formatDateTime(s.record.createdAt, tz),
      lastActiveTime: formatDateTime(s.lastActiveAt, tz),
      expires: s.record.expiresAt === null ? null : formatDateTime(s.record.expiresAt, tz),
      ipaddr: s.record.client.ip ?? '',
      userAgent: s.record.client.userAgent ?? '',
    }));
  }
}

@injectable()
export class EndSession {
  constructor(@inject(IssueTokens) private readonly issue: IssueTokens) {}

  /**
   * Ends one session by its short token id. `kick` (admin force logout): its token then answers
   * "kicked out"; otherwise (a user ending one of their own devices) it is logged out. Either way
   * the refresh-token family is revoked, so it cannot mint a new session. `ownerId` limits
   * the search to that user's sessions (a user can only end their own).
   */
  async execute(input: { loginType: string; tokenId: string; kick: boolean; ownerId?: string }): Promise<void> {
    const manager = this.issue.manager(input.loginType);
    let hash: string | null;
    if (input.ownerId === undefined) hash = await manager.findByTokenId(input.tokenId);
    else hash = (await manager.listSessions(input.ownerId)).find((s) => tokenIdOf(s.tokenHash) === input.tokenId)?.tokenHash ?? null;
    if (hash === null) throw new DomainError('not-found', 'No live session has this token id.');
    const family = await this.issue.registry.familyOfAccess(input.loginType, hash);
    // Revoked (marker first), not just deleted: a refresh racing this call cannot keep a session.
    // The ended token itself is left to the kick / logout below.
    if (family !== null) await this.issue.registry.revokeFamily(manager, family, hash);
    if (input.kick) await manager.kickoutTokenId(input.tokenId);
    else await manager.logoutByHash(hash);
  }
}

@injectable()
export class LogoutAll {
  constructor(@inject(IssueTokens) private readonly issue: IssueTokens) {}

  /**
   * "Log out everywhere" (ASVS 7.4.3): every session of the user ends, every refresh token of
   * theirs issued before now is refused (the per-user cut-off) and the family of each live session
   * is revoked, so no refresh token of theirs can mint a new session (a refresh racing with this
   * call dies too: RefreshToken checks the revocation and the cut-off after it rotates).
   * Returns how many sessions were live.
   */
  async execute(input: { loginType: string; userId: string }): Promise<number> {
    const manager = this.issue.manager(input.loginType);
    // First the cut-off: it reaches every family of the user, including those of devices whose
    // access token lapsed (no longer listed), and a refresh in flight re-checks it after rotating.
    await this.issue.registry.revokeAllOfUser(input.loginType, input.userId);
    const sessions = await manager.listSessions(input.userId);
    for (const s of sessions) {
      const family = s.record.attrs.rtFamily ?? (await this.issue.registry.familyOfAccess(input.loginType, s.tokenHash));
      if (family !== undefined && family !== null) await this.issue.registry.revokeFamily(manager, family);
    }
    await manager.logoutAll(input.userId);
    return sessions.length;
  }
}
