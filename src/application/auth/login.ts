/**
 * Login for either login type. The admin app passes an RSA-encrypted password and requires the
 * captcha; the web app passes a plain password.
 *
 * Order: (rate limit at the edge) -> (body validation at the edge) -> captcha (when every login
 * needs one) -> decrypt -> device cookies -> account lock (a spent shared budget asks for a captcha:
 * the one sent with the login, else 428) -> look up -> BCrypt compare (a dummy hash for unknown
 * users) -> enabled -> session -> refresh token -> a new device cookie. Unknown user, wrong
 * password, undecryptable password and disabled account are one failure: same status, code,
 * message and the same BCrypt work.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { BCRYPT_MAX_BYTES, isBcryptHash, utf8Length } from '../../domain/password';
import type { ClientInfo } from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { Metrics } from '../ports/metrics';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import type { DirectoryUser, UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { principalOf } from '../users/principal';
import { AccountLock, type LockAttempt } from './account-lock';
import type { AuthSettings } from './auth-settings';
import { DeviceCookies, type IssuedDeviceCookie } from './device-cookies';
import { IssueTokens, type TokenPair } from './issue-tokens';
import { VerifyCaptcha } from './verify-captcha';
import type { LoginType } from '../../domain/login-type';

export const BAD_CREDENTIALS_MESSAGE = 'Wrong username or password.';

export interface LoginInput {
  readonly loginType: LoginType;
  readonly username: string;
  /** The password: RSA ciphertext (base64) when `encrypted`, else plain text. */
  readonly password: string;
  readonly encrypted: boolean;
  readonly requireCaptcha: boolean;
  readonly captcha?: { readonly uuid?: string | undefined; readonly code?: string | undefined };
  readonly client: ClientInfo;
  /** Every device cookie value the client presented: a valid one for this account is judged on its own failures. */
  readonly deviceCookies: readonly string[];
}

export interface LoginOutput extends TokenPair {
  /** Who logged in (for the edge's security event; not part of the response body). */
  readonly userId: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
  /** The device cookie to hand to the client (transport only, never in the response body). */
  readonly deviceCookie: IssuedDeviceCookie;
}

const badCredentials = (): DomainError => new DomainError('bad-credentials', BAD_CREDENTIALS_MESSAGE);

@injectable()
export class Login {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...VerifyCaptcha.reasons,
    ...AccountLock.reasons,
    ...IssueTokens.reasons,
    'bad-credentials',
    'directory-unavailable',
    'server-busy',
  ];

  private dummyHash: Promise<string> | undefined;

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(VerifyCaptcha) private readonly captcha: VerifyCaptcha,
    @inject(AccountLock) private readonly lock: AccountLock,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
    @inject(IssueTokens) private readonly issue: IssueTokens,
  ) {}

  /** Counts every attempt by outcome: "success", the failure's domain reason, or "error" (store down, bug). */
  async execute(input: LoginInput): Promise<LoginOutput> {
    try {
      const out = await this.attempt(input);
      this.metrics.loginAttempt(input.loginType, 'success');
      return out;
    } catch (e) {
      this.metrics.loginAttempt(input.loginType, e instanceof DomainError ? e.reason : 'error');
      throw e;
    }
  }

  private async attempt(input: LoginInput): Promise<LoginOutput> {
    const solveCaptcha = () => this.captcha.execute({ scope: input.loginType, uuid: input.captcha?.uuid, code: input.captcha?.code });
    const everyLogin = input.requireCaptcha && this.settings.captcha.enabled;
    if (everyLogin) await solveCaptcha();
    const password = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;
    const deviceId = await this.devices.verify(input.loginType, input.username, input.deviceCookies);
    const attempt = await this.beginAttempt(input, deviceId, everyLogin, solveCaptcha);
    let user: DirectoryUser | null;
    let matches: boolean;
    try {
      user = await this.directory.findByUsername(input.username);
      matches = await this.passwordMatches(user, password);
    } catch (e) {
      // No verdict (directory down, hasher busy): the place goes back, nothing is counted.
      await this.lock.release(attempt);
      throw e;
    }
    if (!matches || user === null || !user.enabled) {
      await this.lock.fail(attempt);
      throw badCredentials();
    }
    await this.lock.succeed(attempt);
    const tokens = await this.issue.execute({ loginType: input.loginType, principal: principalOf(user), client: input.client });
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
      deviceCookie: this.devices.issue(input.loginType, user.username),
    };
  }

  /**
   * A place in the lock's budget. When the shared budget is spent (428 captcha-required), a login
   * that brought a captcha answer has it checked now (single use: a wrong one is 400
   * captcha-wrong) and is admitted; one without an answer gets the 428.
   */
  private async beginAttempt(
    input: LoginInput,
    deviceId: string | null,
    solved: boolean,
    solveCaptcha: () => Promise<void>,
  ): Promise<LockAttempt | null> {
    try {
      return await this.lock.begin(input.loginType, input.username, { deviceId, captchaSolved: solved });
    } catch (e) {
      const answered = input.captcha?.uuid !== undefined && input.captcha.uuid !== '';
      if (solved || !answered || !(e instanceof DomainError) || e.reason !== 'captcha-required') throw e;
    }
    await solveCaptcha();
    return this.lock.begin(input.loginType, input.username, { deviceId, captchaSolved: true });
  }

  /**
   * One BCrypt compare whatever the case: an unknown user, an unusable password or a stored hash
   * that is not BCrypt (a broken row, which would fail instantly) is compared against a dummy
   * hash, so every failure costs the same time.
   */
  private async passwordMatches(user: DirectoryUser | null, password: string | null): Promise<boolean> {
    const usable = password !== null && password !== '' && utf8Length(password) <= BCRYPT_MAX_BYTES;
    const storedHash = user !== null && isBcryptHash(user.passwordHash) ? user.passwordHash : null;
    const matches = await this.hasher.verify(usable ? password : 'x', storedHash ?? (await this.dummy()));
    return usable && storedHash !== null && matches;
  }

  /** A hash of a random password at the configured cost: unknown users cost one real compare too. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.hasher.hash(`dummy-${this.clock.now()}-${Math.random()}`, this.settings.bcryptCost);
    return this.dummyHash;
  }
}
