/**
 * The factor a role requires (svc.mfa.required-roles) stays: removing the last second factor of a holder of such a
 * role is refused (409 `last-required-factor`), as the session would otherwise go on as a full one with no factor
 * (the requirement is checked when a session is made). Enrolling another factor first, then removing this one, works;
 * an administrator's reset (ResetUserMfa) is not held back (it ends the user's sessions, and the next login is
 * restricted to enrolment).
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { PasskeyStore } from '../ports/passkey-store';
import type { TotpStore } from '../ports/totp-store';
import { TOKENS } from '../tokens';
import type { MfaSettings } from './mfa-settings';

/** Who removes a factor: the session's user and the roles its principal holds. */
export interface FactorHolder {
  readonly userId: string;
  readonly roles: readonly string[];
}

/** The factor about to go: the TOTP one, or one passkey. */
export type RemovedFactor = { readonly kind: 'totp' } | { readonly kind: 'passkey'; readonly credentialId: string };

@injectable()
export class RequiredFactor {
  static readonly reasons: readonly Reason[] = ['last-required-factor'];

  constructor(
    @inject(TOKENS.TotpStore) private readonly totp: TotpStore,
    @inject(TOKENS.PasskeyStore) private readonly passkeys: PasskeyStore,
    @inject(TOKENS.MfaSettings) private readonly settings: Pick<MfaSettings, 'requiredRoles'>,
  ) {}

  /** Throws `last-required-factor` when `removed` would leave a holder of a required role with no second factor. */
  async assertRemovable(loginType: LoginType, holder: FactorHolder, removed: RemovedFactor): Promise<void> {
    const required = holder.roles.filter((r) => this.settings.requiredRoles.includes(r));
    if (required.length === 0) return;
    const [totp, passkeys] = await Promise.all([
      removed.kind === 'totp' ? Promise.resolve(null) : this.totp.active(loginType, holder.userId),
      this.passkeys.list(loginType, holder.userId),
    ]);
    const left = passkeys.filter((p) => removed.kind !== 'passkey' || p.id !== removed.credentialId).length + (totp === null ? 0 : 1);
    if (left > 0) return;
    throw new DomainError(
      'last-required-factor',
      `This is your last second factor and your role (${required.join(', ')}) requires one: ` +
        'enrol another (a passkey or an authenticator app) before removing it.',
    );
  }
}
