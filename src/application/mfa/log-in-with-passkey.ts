/**
 * The passwordless login: a discoverable passkey with user verification answers
 * `Passkeys.authenticationOptions(loginType, null)`; the credential names its account, which then
 * finishes the login as any other does (FinishLogin: the account-state checks, the session with
 * `amr` [hwk or swk, mfa], its refresh token, a device cookie). The passkey is possession and the
 * authenticator's user verification a second factor, so the session is a multi-factor one.
 * Counted with the logins by outcome.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { ClientInfo } from '../../domain/session';
import { FinishLogin, type LoginOutput } from '../auth/finish-login';
import type { Metrics } from '../ports/metrics';
import type { UserDirectory } from '../ports/user-directory';
import type { AuthenticationResponseJson } from '../ports/webauthn-verifier';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import { passkeyInvalid } from './passkey-challenges';
import { Passkeys } from './passkeys';

export interface LogInWithPasskeyInput {
  readonly loginType: LoginType;
  readonly response: AuthenticationResponseJson;
  readonly client: ClientInfo;
  /** False: a session of session.no-remember-timeout and no refresh token. Absent: true. */
  readonly rememberMe?: boolean | undefined;
}

@injectable()
export class LogInWithPasskey {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...new Set([...Passkeys.reasons, ...FinishLogin.reasons, 'directory-unavailable' as const]),
  ];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(Passkeys) private readonly passkeys: Passkeys,
    @inject(FinishLogin) private readonly finish: FinishLogin,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: LogInWithPasskeyInput): Promise<LoginOutput> {
    try {
      const out = await this.attempt(input);
      this.metrics.loginAttempt(input.loginType, 'success');
      return out;
    } catch (e) {
      this.metrics.loginAttempt(input.loginType, e instanceof DomainError ? e.reason : 'error');
      throw e;
    }
  }

  private async attempt(input: LogInWithPasskeyInput): Promise<LoginOutput> {
    const readAt = this.clock.now();
    const proof = await this.passkeys.verifyAuthentication(input.loginType, input.response, null);
    const user = await this.directory.findById(proof.userId);
    // A passkey outliving its account proves nobody.
    if (user === null) throw passkeyInvalid();
    // The passkey is a second factor of the account: its factors need no read.
    const { loginType, client, rememberMe } = input;
    return this.finish.execute({ loginType, user, client, amr: [proof.method, 'mfa'], hasFactor: true, readAt, rememberMe });
  }
}
