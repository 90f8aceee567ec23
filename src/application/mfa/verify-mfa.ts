/**
 * The second step of a login (`POST /auth/mfa/verify`): the mfaToken of a login whose password was
 * right, and one proof of a second factor. Wrong proofs spend the account's failure budget exactly
 * like wrong passwords (device cookies included), so the 10^6 codes cannot be walked. The mfaToken is
 * taken before the proof is checked (of concurrent answers exactly one checks its proof; the others get
 * mfa-token-invalid with their proofs unspent); a wrong proof puts it back, a right one answers what a login answers.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { ClientInfo } from '../../domain/session';
import { GuardedProof, proved, refused } from '../auth/guarded-proof';
import { FinishLogin, type LoginOutput } from '../auth/finish-login';
import { VerifyCaptcha } from '../auth/verify-captcha';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { MfaChallenges, mfaTokenInvalid } from './mfa-challenges';
import { ProveFactor, type FactorProof } from './prove-factor';

export interface VerifyMfaInput extends FactorProof {
  readonly loginType: LoginType;
  readonly mfaToken: string;
  /** A solved captcha: needed only after 428 captcha-required (the account's shared budget is spent). */
  readonly captcha?: { readonly uuid: string; readonly code: string } | undefined;
  readonly client: ClientInfo;
  readonly deviceCookies: readonly string[];
}

const WRONG: Record<'mfa-code-invalid' | 'passkey-invalid', string> = {
  'mfa-code-invalid': 'The code is wrong or was already used.',
  'passkey-invalid': 'The passkey could not be verified.',
};

@injectable()
export class VerifyMfa {
  static readonly reasons: readonly Reason[] = [
    ...FinishLogin.reasons,
    ...GuardedProof.reasons,
    ...VerifyCaptcha.reasons,
    'mfa-token-invalid',
    'mfa-code-invalid',
    'passkey-invalid',
    'mfa-unavailable',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(MfaChallenges) private readonly challenges: MfaChallenges,
    @inject(ProveFactor) private readonly prove: ProveFactor,
    @inject(GuardedProof) private readonly guarded: GuardedProof,
    @inject(VerifyCaptcha) private readonly captcha: VerifyCaptcha,
    @inject(FinishLogin) private readonly finish: FinishLogin,
  ) {}

  async execute(input: VerifyMfaInput): Promise<LoginOutput> {
    const { loginType } = input;
    const challenge = await this.challenges.read(loginType, input.mfaToken);
    if (input.captcha !== undefined) await this.captcha.execute({ scope: loginType, uuid: input.captcha.uuid, code: input.captcha.code });
    const attempt = {
      loginType,
      username: challenge.username,
      deviceCookies: input.deviceCookies,
      captchaSolved: input.captcha !== undefined,
    };
    const amr = await this.guarded.execute(attempt, async () => {
      // The mfaToken first: of concurrent answers only the one holding it checks (and spends) its proof; the others
      // are refused with their proofs (a recovery code) unspent. A wrong proof, or a check without a verdict, puts it back.
      const taken = await this.challenges.take(loginType, input.mfaToken);
      if (taken === null) throw mfaTokenInvalid(loginType);
      const result = await this.prove.execute(loginType, challenge.userId, input).catch(async (e: unknown) => {
        await this.challenges.putBack(loginType, input.mfaToken, taken);
        throw e;
      });
      if (result.ok) return proved(result.amr);
      await this.challenges.putBack(loginType, input.mfaToken, taken);
      return refused(new DomainError(result.reason, WRONG[result.reason], { loginType }));
    });
    const user = await this.directory.findById(challenge.userId);
    if (user === null) throw mfaTokenInvalid(loginType);
    // The factor that just proved the user is one: the account's factors need no second read. The
    // session is the one the first step asked for: its device type and remember-me.
    const client = challenge.deviceType === undefined ? input.client : { ...input.client, deviceType: challenge.deviceType };
    return this.finish.execute({
      loginType,
      user,
      client,
      amr: ['pwd', amr, 'mfa'],
      hasFactor: true,
      readAt: challenge.passwordAt,
      rememberMe: challenge.rememberMe,
    });
  }
}
