/**
 * Registers a passkey on a logged-in session: checks the authenticator's answer to
 * `Passkeys.registrationOptions` (the challenge issued to this user in this login type, single use;
 * origin and relying party; the attestation) and stores the credential under `name`. A credential
 * id registered already in the login type is refused like a bad answer.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { PasskeyStore } from '../ports/passkey-store';
import type { RegistrationResponseJson, WebAuthnVerifier } from '../ports/webauthn-verifier';
import { TOKENS } from '../tokens';
import type { AuthSettings } from '../auth/auth-settings';
import { PasskeyChallenges, passkeyInvalid } from './passkey-challenges';
import { viewOf, type PasskeyView } from './passkeys';

export interface RegisterPasskeyInput {
  readonly loginType: LoginType;
  readonly userId: string;
  readonly response: RegistrationResponseJson;
  /** What the user calls it; blank or absent: `Passkey`. */
  readonly name?: string | undefined;
}

export const DEFAULT_PASSKEY_NAME = 'Passkey';

@injectable()
export class RegisterPasskey {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['passkey-invalid', 'store-unavailable', 'directory-unavailable', 'directory-read-only'];

  constructor(
    @inject(TOKENS.PasskeyStore) private readonly store: PasskeyStore,
    @inject(TOKENS.WebAuthnVerifier) private readonly verifier: WebAuthnVerifier,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly log: Logger,
    @inject(TOKENS.AuthSettings) private readonly settings: Pick<AuthSettings, 'timeZone'>,
    @inject(PasskeyChallenges) private readonly challenges: PasskeyChallenges,
  ) {}

  async execute(input: RegisterPasskeyInput): Promise<PasskeyView> {
    const { challenge } = await this.challenges.take(input.loginType, input.response, 'registration', input.userId);
    const verified = await this.verifier.verifyRegistration(input.response, { challenge, requireUserVerification: false });
    if (!verified.ok) {
      this.log.debug({ loginType: input.loginType, userId: input.userId, why: verified.why }, 'passkey registration refused');
      throw passkeyInvalid();
    }
    const c = verified.value;
    const passkey = {
      id: c.id,
      userId: input.userId,
      publicKey: c.publicKey,
      counter: c.counter,
      transports: c.transports,
      name: input.name?.trim() || DEFAULT_PASSKEY_NAME,
      createdAt: this.clock.now(),
      lastUsedAt: null,
      deviceType: c.deviceType,
      backedUp: c.backedUp,
    };
    if (!(await this.store.add(input.loginType, passkey))) throw passkeyInvalid();
    return viewOf(passkey, this.settings.timeZone);
  }
}
