/**
 * What an account must do before a session of it is a full one (Keycloak's required actions): change
 * a password an administrator reset; enrol a second factor a role of theirs requires
 * (svc.mfa.required-roles). Asked at every login and refresh, so the restriction follows the account.
 */
import { inject, injectable } from 'inversify';
import type { LoginType } from '../../domain/login-type';
import type { RequiredAction } from '../../domain/session';
import type { DirectoryUser } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { requiredActionsOf } from '../users/principal';
import type { MfaSettings } from './mfa-settings';
import { SecondFactors } from './second-factors';

@injectable()
export class RequiredActions {
  constructor(
    @inject(SecondFactors) private readonly factors: SecondFactors,
    @inject(TOKENS.MfaSettings) private readonly settings: MfaSettings,
  ) {}

  /**
   * `hasFactor`: whether the account has a second factor, when the caller knows it already (it read
   * the factors, or a factor just proved the user): the factors are then not read again.
   */
  async of(loginType: LoginType, user: DirectoryUser, hasFactor?: boolean): Promise<RequiredAction[]> {
    const actions = requiredActionsOf(user);
    if (this.needsFactor(user) && !(hasFactor ?? (await this.factors.methodsOf(loginType, user.id)).length > 0)) {
      actions.push('mfa-enrolment');
    }
    return actions;
  }

  private needsFactor(user: DirectoryUser): boolean {
    const required = this.settings.requiredRoles;
    return required.length > 0 && user.roles.some((r) => required.includes(r));
  }
}
