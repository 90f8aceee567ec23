/**
 * The last step of every login, whatever proved the user (a password, a password and a second
 * factor, a passkey alone): the account-state checks, then the session with its required actions
 * and how the user authenticated (`amr`, `authTime`), its refresh token, and a new device cookie.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuthMethod, ClientInfo, Principal, RequiredAction } from '../../domain/session';
import type { Clock } from '../ports/clock';
import { accountActive, type DirectoryUser, type UserDirectory } from '../ports/user-directory';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AccountSettings } from '../users/account-settings';
import { RequiredActions } from '../mfa/required-actions';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import { ADMIN_LOGIN_TYPE } from '../users/live-sessions';
import { principalOf } from '../users/principal';
import type { AuthSettings } from './auth-settings';
import { DeviceCookies, type IssuedDeviceCookie } from './device-cookies';
import { IssueTokens, type TokenPair } from './issue-tokens';

export interface FinishLoginInput {
  readonly loginType: LoginType;
  readonly user: DirectoryUser;
  readonly client: ClientInfo;
  /** How the user proved who they are (RFC 8176). */
  readonly amr: readonly AuthMethod[];
  /**
   * When the account was read for this login (ms): a password change, reset or disable whose
   * cut-off falls after it (it landed while the proof was being checked) ends this login.
   */
  readonly readAt: number;
  /**
   * Whether the account has a second factor, when the caller knows it (it read the factors, or one
   * just proved the user): the required actions need it, and the factors are not read again.
   */
  readonly hasFactor?: boolean;
  /** False: a session of session.no-remember-timeout and no refresh token. Absent: true. */
  readonly rememberMe?: boolean | undefined;
}

export interface LoginOutput extends TokenPair {
  /** Who logged in (for the edge's security event; not part of the response body). */
  readonly userId: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
  /** True when an administrator reset the password: the session is restricted to changing it. */
  readonly passwordChangeRequired: boolean;
  /** Pending required actions of the session (empty: a full session). */
  readonly requiredActions: readonly RequiredAction[];
  /** The device cookie to hand to the client (transport only, never in the response body). */
  readonly deviceCookie: IssuedDeviceCookie;
}

/** Re-reads of the user after the session is written before a login still racing changes gives up. */
const MAX_SETTLE_ROUNDS = 3;

/** The same strings, in any order (a directory need not sort them). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** Whether two snapshots of a user grant the same (and show the same name and avatar). */
function samePrincipal(a: Principal, b: Principal): boolean {
  return (
    a.username === b.username &&
    a.nickname === b.nickname &&
    a.avatar === b.avatar &&
    sameSet(a.roles, b.roles) &&
    sameSet(a.permissions, b.permissions)
  );
}

@injectable()
export class FinishLogin {
  static readonly reasons: readonly Reason[] = [
    ...IssueTokens.reasons,
    'bad-credentials',
    'account-disabled',
    'email-not-verified',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.AccountSettings) private readonly accounts: AccountSettings,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
    @inject(IssueTokens) private readonly issue: IssueTokens,
    @inject(RequiredActions) private readonly actions: RequiredActions,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.AdminDirectory) private readonly admins: UserDirectory,
    @inject(TOKENS.MemberDirectory) private readonly members: UserDirectory,
  ) {}

  async execute(input: FinishLoginInput): Promise<LoginOutput> {
    const { loginType } = input;
    this.assertMayLogIn(loginType, input.user);
    const requiredActions = await this.actions.of(loginType, input.user, input.hasFactor);
    const tokens = await this.issue.execute({
      loginType,
      principal: principalOf(input.user),
      client: input.client,
      requiredActions,
      amr: input.amr,
      rememberMe: input.rememberMe !== false,
    });
    await this.assertNotCutOff(input, tokens.accessToken);
    const user = await this.settle(input, tokens.accessToken);
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expires: tokens.expires,
      userId: user.id,
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar,
      roles: [...user.roles],
      permissions: [...user.permissions],
      passwordChangeRequired: requiredActions.includes('update-password'),
      requiredActions,
      deviceCookie: this.devices.issue(loginType, user.username),
    };
  }

  /**
   * The account may have changed while this login checked its proof (a BCrypt compare takes long
   * enough): a change, reset or disable that landed since `readAt` wrote a refresh cut-off, which
   * the session and family just written here escaped. Re-read it now that they are written (as a
   * refresh re-checks after rotating): if it is later than `readAt`, end them both and refuse. (A
   * cut-off in the very millisecond of the read is taken as before it, as a family born in the
   * millisecond of a cut-off survives it.)
   */
  private async assertNotCutOff(input: FinishLoginInput, accessToken: string): Promise<void> {
    // The account's cut-off only: the one this login's own replacement wrote (session.is-concurrent=false) is a
    // replacement's, kept apart (refresh-cut-offs.ts), and no change to the account.
    const cut = await this.registry.cutOffOf(input.loginType, input.user.id);
    if (cut === null || cut <= input.readAt) return;
    await this.refuse(input.loginType, accessToken);
  }

  /**
   * A change to the user's roles, or to a role's menus or status, that landed while this login
   * checked its proof brought every live session of the user in line, but not this one, not yet
   * written then. Re-read the user now that it is written: a change landing later finds it (its
   * resync lists the user's sessions after writing the directory). When the roles or permissions
   * read differ from the session's, replace its snapshot and read again, until a read agrees with
   * what the session holds (a second change racing the replacement is then seen). A user gone or
   * disabled meanwhile ends the session, as the cut-off does. One directory read when nothing
   * changed (a map lookup, or one SQL query).
   */
  private async settle(input: FinishLoginInput, accessToken: string): Promise<DirectoryUser> {
    const manager = this.managers.get(input.loginType);
    let held = principalOf(input.user);
    for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
      const user = await this.reread(input, accessToken);
      if (user === null || !accountActive(user, this.clock.now())) return this.refuse(input.loginType, accessToken);
      const fresh = principalOf(user);
      if (samePrincipal(fresh, held)) return user;
      const resolved = await manager.resolveToken(accessToken);
      if (!resolved.ok || !(await manager.replacePrincipal(resolved.session.tokenHash, resolved.session.record, fresh))) {
        return this.refuse(input.loginType, accessToken);
      }
      held = fresh;
    }
    return this.refuse(input.loginType, accessToken);
  }

  /** The user as the login type's directory has it now; a failing directory ends the session written before rethrowing. */
  private async reread(input: FinishLoginInput, accessToken: string): Promise<DirectoryUser | null> {
    try {
      return await (input.loginType === ADMIN_LOGIN_TYPE ? this.admins : this.members).findById(input.user.id);
    } catch (e) {
      await this.end(input.loginType, accessToken).catch(() => undefined);
      throw e;
    }
  }

  /** Ends the session (and refresh family) just written and refuses the login: the account changed under it. */
  private async refuse(loginType: LoginType, accessToken: string): Promise<never> {
    await this.end(loginType, accessToken);
    throw new DomainError('bad-credentials', 'The account changed during this login; log in again.', { loginType });
  }

  /** Ends the session just written and its refresh family. */
  private async end(loginType: LoginType, accessToken: string): Promise<void> {
    const manager = this.managers.get(loginType);
    const resolved = await manager.resolveToken(accessToken);
    if (resolved.ok) {
      const family = resolved.session.record.attrs.rtFamily;
      if (family !== undefined) await this.registry.revokeFamily(loginType, family, resolved.session.tokenHash);
      await manager.kickoutByHash(resolved.session.tokenHash);
    }
  }

  /**
   * Only ever asked once the user is proved (so the state of an account is no oracle for a
   * guesser): a disabled account (or a timed ban not yet over) is 401 account-disabled; a web
   * member whose e-mail is unverified, where svc.web.require-verified-email is on, is 403 email-not-verified.
   */
  assertMayLogIn(loginType: LoginType, user: DirectoryUser): void {
    if (!accountActive(user, this.clock.now())) {
      const until = user.disabledUntil ?? null;
      const when = until === null ? '' : ` until ${formatDateTime(until, this.settings.timeZone)}`;
      throw new DomainError('account-disabled', `This account is disabled${when}.`, { loginType });
    }
    if (loginType === 'web' && this.accounts.requireVerifiedEmail && user.emailVerified !== true) {
      throw new DomainError('email-not-verified', 'Verify your e-mail address before logging in (POST /auth/verify-email).');
    }
  }
}
