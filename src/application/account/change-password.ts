/**
 * A user changes their own password (ASVS 6.2.2, 6.2.3): the current password is required and is
 * checked like a login's (the same failure budget, device cookies included: this route cannot be
 * used to guess), the new one must pass the policy. On success the hash is replaced (the old one
 * joins the history), the session's "update-password" required action is done (a restricted
 * session becomes a full one), and with `revokeOtherSessions` (default) every other session of
 * the account ends and every refresh token of theirs is refused:
 *
 *  - the refresh cut-off reaches every family, including those of logins whose access token
 *    lapsed; the caller's family is cut too, so the caller gets a fresh refresh token in a new
 *    family (born after the cut) bound to the same access token;
 *  - every device cookie of the account is revoked and the caller gets a new one.
 *
 * Admin: both passwords RSA-encrypted like the login's. Web: in clear (TLS), like web login.
 */
import { inject, injectable } from 'inversify';
import { sessionDeviceType } from '../../domain/device-type';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { SessionRecord } from '../../domain/session';
import type { AuthSettings } from '../auth/auth-settings';
import { DeviceCookies, type IssuedDeviceCookie } from '../auth/device-cookies';
import { CheckRecentAuth } from '../auth/check-recent-auth';
import { GuardedProof, proved, refused } from '../auth/guarded-proof';
import { IssueTokens } from '../auth/issue-tokens';
import { actionsLeft, LiftRequiredAction, withoutRequiredAction } from '../mfa/lift-required-action';
import { SecondFactors } from '../mfa/second-factors';
import { PasswordCheck } from '../auth/password-check';
import type { AccountStore } from '../ports/account-store';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import type { AccountSettings } from '../users/account-settings';
import { CheckPasswordPolicy } from '../users/check-password-policy';

export interface ChangePasswordInput {
  readonly loginType: LoginType;
  /** The caller's session: the one that stays. */
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly currentPassword: string;
  readonly newPassword: string;
  /** Both passwords are RSA ciphertext (admin) or plain text (web). */
  readonly encrypted: boolean;
  readonly revokeOtherSessions: boolean;
  readonly deviceCookies: readonly string[];
}

export interface ChangePasswordOutput {
  readonly sessionsEnded: number;
  /** The caller's new refresh token when its family was cut with the others' (revokeOtherSessions), else null. */
  readonly refreshToken: string | null;
  /** A new access token when the caller's was shared with other logins (session.is-share) and ended with them, else null. */
  readonly accessToken: string | null;
  /** A new device cookie (transport only) when the account's were revoked, else null. */
  readonly deviceCookie: IssuedDeviceCookie | null;
}

const wrongCurrent = (loginType: LoginType): DomainError =>
  new DomainError('current-password-wrong', 'The current password is wrong.', { loginType });

@injectable()
export class ChangePassword {
  static readonly reasons: readonly Reason[] = [
    ...GuardedProof.reasons,
    ...CheckPasswordPolicy.reasons,
    ...CheckRecentAuth.reasons,
    'current-password-wrong',
    'validation-failed',
    'directory-read-only',
    'directory-unavailable',
    'server-busy',
    'store-unavailable',
  ];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.AuthSettings) private readonly auth: AuthSettings,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(PasswordCheck) private readonly passwords: PasswordCheck,
    @inject(CheckPasswordPolicy) private readonly policy: CheckPasswordPolicy,
    @inject(GuardedProof) private readonly guarded: GuardedProof,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(IssueTokens) private readonly issue: IssueTokens,
    @inject(SecondFactors) private readonly factors: SecondFactors,
    @inject(CheckRecentAuth) private readonly recent: CheckRecentAuth,
    @inject(LiftRequiredAction) private readonly lift: LiftRequiredAction,
  ) {}

  async execute(input: ChangePasswordInput): Promise<ChangePasswordOutput> {
    const { loginType, record } = input;
    const { userId, username } = record.principal;
    const [current, next] = input.encrypted
      ? await Promise.all([this.rsa.decrypt(input.currentPassword), this.rsa.decrypt(input.newPassword)])
      : [input.currentPassword, input.newPassword];
    // An account with a second factor changes its password only on a session that proved its user recently.
    if ((await this.factors.methodsOf(loginType, userId)).length > 0) this.recent.execute({ record });
    const user = await this.guarded.execute({ loginType, username, deviceCookies: input.deviceCookies }, async () => {
      const found = await this.passwords.accountWith(userId, current);
      return found !== null ? proved(found) : refused(wrongCurrent(loginType));
    });
    if (next === null) {
      const errors = [{ pointer: '/newPassword', detail: 'cannot be decrypted with the key of /auth/getConfig' }];
      throw new DomainError('validation-failed', 'The new password could not be decrypted.', { errors });
    }
    await this.policy.execute({ password: next, username: user.username, pointer: '/newPassword', userId, currentHash: user.passwordHash });
    const passwordHash = await this.hasher.hash(next, this.auth.bcryptCost);
    const keepHistory = Math.max(0, this.settings.passwordHistory - 1);
    // Only over the hash the current password was checked against: a reset or change that landed
    // since wins, and this one answers as a wrong current password (it is no longer the current one).
    const written = await this.accounts.setPassword(userId, {
      passwordHash,
      mustChange: false,
      keepHistory,
      expectedHash: user.passwordHash,
    });
    if (written === null) throw wrongCurrent(loginType);
    return input.revokeOtherSessions ? this.endOthers(input) : this.keepOthers(input);
  }

  /** Only the caller's restriction goes (its required action is done). */
  private async keepOthers(input: ChangePasswordInput): Promise<ChangePasswordOutput> {
    const { loginType, tokenHash, record } = input;
    await this.lift.execute({ loginType, tokenHash, record, action: 'update-password' });
    return { sessionsEnded: 0, refreshToken: null, accessToken: null, deviceCookie: null };
  }

  private async endOthers(input: ChangePasswordInput): Promise<ChangePasswordOutput> {
    const { loginType, tokenHash, record } = input;
    const { userId, username } = record.principal;
    const manager = this.managers.get(loginType);
    // The cut-off first: every family born before now is refused, the lapsed logins' included.
    await this.registry.revokeAllOfUser(loginType, userId);
    await this.devices.revokeAll(loginType, username);
    let ended = 0;
    const others = (await manager.listSessions(userId)).filter((s) => s.tokenHash !== tokenHash);
    // Their families' records deleted in parallel batches; the sessions are kicked out here.
    await this.registry.revokeFamiliesOfSessions(loginType, others);
    for (const s of others) if (await manager.kickoutByHash(s.tokenHash)) ended++;
    // A shared token (session.is-share) is every login's of the account: it ends too, and the
    // caller gets a session of its own (a new access token), born after the cut.
    if (record.attrs.shareSeed !== undefined) return this.replaceShared(input, ended);
    // The caller keeps its session: a new family (born after the cut) for its access token (none
    // for a session without remember-me, which never has one).
    const oldFamily = record.attrs.rtFamily;
    if (oldFamily !== undefined) await this.registry.revokeFamily(loginType, oldFamily, tokenHash);
    if (record.rememberMe === false) {
      await manager.patchRecord(tokenHash, (current) => ({ requiredActions: actionsLeft(current, 'update-password') }));
      return { sessionsEnded: ended, refreshToken: null, accessToken: null, deviceCookie: this.devices.issue(loginType, username) };
    }
    const family = this.registry.newFamily();
    const refreshToken = await this.registry.issue(loginType, userId, family, tokenHash, sessionDeviceType(record));
    // On the session as it is now (its roles may have changed meanwhile): only the action and the family change.
    await manager.patchRecord(tokenHash, (current) => ({
      requiredActions: actionsLeft(current, 'update-password'),
      attrs: { ...current.attrs, rtFamily: family },
    }));
    return { sessionsEnded: ended, refreshToken, accessToken: null, deviceCookie: this.devices.issue(loginType, username) };
  }

  private async replaceShared(input: ChangePasswordInput, ended: number): Promise<ChangePasswordOutput> {
    const { loginType, tokenHash, record } = input;
    const oldFamily = record.attrs.rtFamily;
    if (oldFamily !== undefined) await this.registry.revokeFamily(loginType, oldFamily, tokenHash);
    await this.managers.get(loginType).kickoutByHash(tokenHash);
    const left = withoutRequiredAction(record, 'update-password');
    const tokens = await this.issue.execute({
      loginType,
      principal: record.principal,
      client: { ...record.client, deviceType: sessionDeviceType(record) },
      requiredActions: left.requiredActions ?? [],
      amr: record.amr ?? ['pwd'],
      authTime: record.authTime ?? record.createdAt,
      rememberMe: record.rememberMe !== false,
    });
    return {
      sessionsEnded: ended + 1,
      refreshToken: tokens.refreshToken ?? null,
      accessToken: tokens.accessToken,
      deviceCookie: this.devices.issue(loginType, record.principal.username),
    };
  }
}
