/** Which second factors an account has: what a login asks for, what a role requirement is met by. */
import { inject, injectable } from 'inversify';
import type { LoginType } from '../../domain/login-type';
import { Passkeys } from './passkeys';
import { TotpFactors } from './totp-factors';

/** How the second step of a login may be answered. */
export type MfaMethod = 'totp' | 'recovery' | 'webauthn';

@injectable()
export class SecondFactors {
  constructor(
    @inject(TotpFactors) private readonly totp: TotpFactors,
    @inject(Passkeys) private readonly passkeys: Passkeys,
  ) {}

  /** The methods the account can answer a second step with; empty: it has no second factor. */
  async methodsOf(loginType: LoginType, userId: string): Promise<MfaMethod[]> {
    const [totp, recovery, passkeys] = await Promise.all([
      this.totp.isEnrolled(loginType, userId),
      this.totp.recoveryCodesLeft(loginType, userId),
      this.passkeys.list(loginType, userId),
    ]);
    const methods: MfaMethod[] = [];
    if (totp) methods.push('totp');
    if (totp && recovery > 0) methods.push('recovery');
    if (passkeys.length > 0) methods.push('webauthn');
    return methods;
  }
}
