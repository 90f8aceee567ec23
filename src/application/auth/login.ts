/**
 * Login for either login type. The admin app passes an RSA-encrypted password and requires the
 * captcha; the web app passes a plain password.
 *
 * Order: (rate limit at the edge) -> (body validation at the edge) -> captcha (when every login
 * needs one) -> decrypt -> device cookies -> account lock (a spent shared budget asks for a captcha:
 * the one sent with the login, else 428) -> look up -> BCrypt compare (a dummy hash for unknown
 * users) -> account state (disabled, unverified e-mail: said only to whoever knows the password) ->
 * session (restricted while required actions are pending) -> refresh token -> a new device cookie.
 * Unknown user, wrong password and undecryptable password are one failure: same status, code,
 * message and the same BCrypt work.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { ClientInfo } from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { Metrics } from '../ports/metrics';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { AccountLock, type LockAttempt } from './account-lock';
import type { AuthSettings } from './auth-settings';
import { FinishLogin, type LoginOutput } from './finish-login';
import { GuardedProof, proved, refused } from './guarded-proof';
import { MfaChallenges } from '../mfa/mfa-challenges';
import { SecondFactors, type MfaMethod } from '../mfa/second-factors';
import { PasswordCheck } from './password-check';
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
  /** False: a session of session.no-remember-timeout and no refresh token. Absent: true. */
  readonly rememberMe?: boolean | undefined;
}

export type { LoginOutput } from './finish-login';

/** The password was right and the account has a second factor: the login continues at POST /auth/mfa/verify. */
export interface MfaPending {
  readonly mfaRequired: true;
  /** Single-use, bound to the login type and the account, living svc.mfa.challenge-ttl-seconds. */
  readonly mfaToken: string;
  readonly methods: readonly MfaMethod[];
}

export type LoginAnswer = LoginOutput | MfaPending;

export const isMfaPending = (a: LoginAnswer): a is MfaPending => 'mfaRequired' in a;

const badCredentials = (): DomainError => new DomainError('bad-credentials', BAD_CREDENTIALS_MESSAGE);

@injectable()
export class Login {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...VerifyCaptcha.reasons,
    ...AccountLock.reasons,
    ...FinishLogin.reasons,
    'bad-credentials',
    'directory-unavailable',
    'server-busy',
  ];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(PasswordCheck) private readonly passwords: PasswordCheck,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,

    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(VerifyCaptcha) private readonly captcha: VerifyCaptcha,
    @inject(AccountLock) private readonly lock: AccountLock,
    @inject(GuardedProof) private readonly guarded: GuardedProof,
    @inject(FinishLogin) private readonly finish: FinishLogin,
    @inject(SecondFactors) private readonly factors: SecondFactors,
    @inject(MfaChallenges) private readonly challenges: MfaChallenges,
  ) {}

  /** Counts every attempt by outcome: "success", the failure's domain reason, or "error" (store down, bug). */
  async execute(input: LoginInput): Promise<LoginAnswer> {
    try {
      const out = await this.attempt(input);
      this.metrics.loginAttempt(input.loginType, isMfaPending(out) ? 'mfa-required' : 'success');
      return out;
    } catch (e) {
      this.metrics.loginAttempt(input.loginType, e instanceof DomainError ? e.reason : 'error');
      throw e;
    }
  }

  private async attempt(input: LoginInput): Promise<LoginAnswer> {
    const solveCaptcha = () => this.captcha.execute({ scope: input.loginType, uuid: input.captcha?.uuid, code: input.captcha?.code });
    const everyLogin = input.requireCaptcha && this.settings.captcha.enabled;
    if (everyLogin) await solveCaptcha();
    const password = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;
    const attempt = {
      loginType: input.loginType,
      username: input.username,
      deviceCookies: input.deviceCookies,
      admit: (deviceId: string | null) => this.beginAttempt(input, deviceId, everyLogin, solveCaptcha),
    };
    const { user, readAt, methods } = await this.guarded.execute(attempt, async () => {
      const at = this.clock.now();
      const found = await this.directory.findByUsername(input.username);
      // Compared whether or not the user exists (a dummy hash for unknown users): the same work either way.
      const matches = await this.passwords.matches(found, password);
      if (!matches || found === null) return refused(badCredentials());
      // With a second factor owed, the right password clears nothing: the second step's failures spend this budget
      // too, and a cleared one would let a fresh mfaToken every few guesses walk the code space. The place goes
      // back; the completed login (VerifyMfa) clears the budget.
      const owed = await this.factors.methodsOf(input.loginType, found.id);
      return proved({ user: found, readAt: at, methods: owed }, owed.length === 0);
    });
    this.finish.assertMayLogIn(input.loginType, user);
    if (methods.length > 0) {
      // A second factor is enrolled: no session yet, a single-use challenge for POST /auth/mfa/verify.
      const choices = { deviceType: input.client.deviceType, rememberMe: input.rememberMe };
      return { mfaRequired: true, mfaToken: await this.challenges.issue(input.loginType, user, readAt, choices), methods };
    }
    const { loginType, client, rememberMe } = input;
    return this.finish.execute({ loginType, user, client, amr: ['pwd'], hasFactor: false, readAt, rememberMe });
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
}
