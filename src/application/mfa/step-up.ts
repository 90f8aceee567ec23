/**
 * Re-authentication on a live session (`POST /auth/step-up`): the password (RSA-encrypted on admin),
 * a TOTP or recovery code, or a passkey assertion. Failures spend the account's failure budget like
 * failed logins; success renews the session's `authTime` (and adds the method to its `amr`), which
 * the step-up guard of sensitive routes reads.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuthMethod, SessionRecord } from '../../domain/session';
import { GuardedProof, proved, refused } from '../auth/guarded-proof';
import { PasswordCheck } from '../auth/password-check';
import type { Clock } from '../ports/clock';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import { SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import { ProveFactor, type FactorProof } from './prove-factor';

export interface StepUpInput extends FactorProof {
  readonly loginType: LoginType;
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly password?: string | undefined;
  /** The password is RSA ciphertext (admin) or plain text (web). */
  readonly encrypted: boolean;
  readonly deviceCookies: readonly string[];
}

const failed = (loginType: LoginType, reason: 'current-password-wrong' | 'mfa-code-invalid' | 'passkey-invalid'): DomainError =>
  new DomainError(reason, 'The re-authentication failed.', { loginType });

@injectable()
export class StepUp {
  static readonly reasons: readonly Reason[] = [
    ...GuardedProof.reasons,
    'current-password-wrong',
    'mfa-code-invalid',
    'passkey-invalid',
    'mfa-unavailable',
    'token-invalid',
    'directory-unavailable',
    'server-busy',
  ];

  constructor(
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(PasswordCheck) private readonly passwords: PasswordCheck,
    @inject(ProveFactor) private readonly prove: ProveFactor,
    @inject(GuardedProof) private readonly guarded: GuardedProof,
    @inject(SessionManagers) private readonly managers: SessionManagers,
  ) {}

  async execute(input: StepUpInput): Promise<{ authTime: number; amr: readonly AuthMethod[] }> {
    const { loginType, record } = input;
    const { userId, username } = record.principal;
    const method = await this.guarded.execute({ loginType, username, deviceCookies: input.deviceCookies }, async () => {
      if (input.password !== undefined) {
        const plain = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;
        const right = (await this.passwords.accountWith(userId, plain)) !== null;
        return right ? proved<AuthMethod>('pwd') : refused(failed(loginType, 'current-password-wrong'));
      }
      const r = await this.prove.execute(loginType, userId, input);
      return r.ok ? proved(r.amr) : refused(failed(loginType, r.reason));
    });
    const authTime = this.clock.now();
    // The session as it is now gets the new authTime and method: its roles may have changed during the proof.
    const renewed = await this.managers
      .get(loginType)
      .patchRecord(input.tokenHash, (current) => ({ authTime, amr: [...new Set([...(current.amr ?? ['pwd']), method])] }));
    if (renewed === null) throw new DomainError('token-invalid', 'The session ended during the re-authentication.', { loginType });
    const amr = renewed.amr ?? [method];
    return { authTime, amr };
  }
}
