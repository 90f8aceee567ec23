/**
 * Passkeys (WebAuthn credentials) of an account: the options of both ceremonies, the list, removal,
 * and the proof an assertion gives, for a login's second factor, a step-up or a passwordless login
 * (`verifyAuthentication`). Registering one is RegisterPasskey.
 *
 * A passwordless login (no user yet) asks for a discoverable credential with user verification
 * required, and the credential names its account; a second factor names the user's credentials
 * (allowCredentials) and prefers verification. Either way: the challenge must be one this login
 * type issued for that purpose and user (single use), the credential must be the user's, its user
 * handle (when sent) must match, and the signature counter must move forward (a clone's does not).
 */
import { createHash } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { DomainError } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { AuthMethod } from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { PasskeyStore, StoredPasskey } from '../ports/passkey-store';
import type {
  AuthenticationResponseJson,
  CreationOptionsJson,
  CredentialRef,
  RequestOptionsJson,
  WebAuthnVerifier,
} from '../ports/webauthn-verifier';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from '../auth/auth-settings';
import { PasskeyChallenges, passkeyInvalid } from './passkey-challenges';
import { RequiredFactor, type FactorHolder } from './required-factor';

/** A passkey as its owner sees it (no key material); times as `yyyy/MM/dd HH:mm:ss` in svc.time-zone. */
export interface PasskeyView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly backedUp: boolean;
}

/** What a verified assertion proves. */
export interface PasskeyProof {
  readonly userId: string;
  readonly credentialId: string;
  /** The authenticator verified its user (PIN, biometrics): possession and a second factor in one. */
  readonly userVerified: boolean;
  /**
   * The RFC 8176 method the proof is: `hwk` for a key bound to one authenticator (a security key, a
   * platform authenticator), `swk` for a synced passkey (multi-device: its key leaves the hardware).
   */
  readonly method: Extract<AuthMethod, 'hwk' | 'swk'>;
}

export interface PasskeyUser {
  readonly userId: string;
  readonly username: string;
  readonly displayName: string;
}

/**
 * The user handle (WebAuthn `user.id`) of an account: the SHA-256 of its login type and id (32 bytes), never its
 * name. The login type is in it because both apps share one relying party: admin user 1 and member 1 have
 * different handles, so an authenticator keeps a discoverable passkey of each instead of replacing one with the
 * other.
 */
export const userHandleOf = (loginType: LoginType, userId: string): string =>
  createHash('sha256').update(`${loginType}:${userId}`, 'utf8').digest('base64url');

/** The handle of passkeys registered before the login type was part of it (the id's bytes): still accepted. */
export const legacyUserHandleOf = (userId: string): string => Buffer.from(userId, 'utf8').toString('base64url');

/** Whether an assertion's user handle names the credential's owner (either handle form). */
const handleNames = (handle: string, loginType: LoginType, userId: string): boolean =>
  handle === userHandleOf(loginType, userId) || handle === legacyUserHandleOf(userId);

export const viewOf = (p: StoredPasskey, timeZone: string): PasskeyView => ({
  id: p.id,
  name: p.name,
  createdAt: formatDateTime(p.createdAt, timeZone),
  lastUsedAt: p.lastUsedAt === null ? null : formatDateTime(p.lastUsedAt, timeZone),
  deviceType: p.deviceType,
  backedUp: p.backedUp,
});

const refOf = (p: StoredPasskey): CredentialRef => ({ id: p.id, transports: p.transports });

@injectable()
export class Passkeys {
  /** The failures these operations may raise, for the API description. */
  static readonly reasons: readonly Reason[] = [
    'passkey-invalid',
    'not-found',
    'store-unavailable',
    'directory-unavailable',
    'directory-read-only',
    ...RequiredFactor.reasons,
  ];

  constructor(
    @inject(TOKENS.PasskeyStore) private readonly store: PasskeyStore,
    @inject(TOKENS.WebAuthnVerifier) private readonly verifier: WebAuthnVerifier,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly log: Logger,
    @inject(TOKENS.AuthSettings) private readonly settings: Pick<AuthSettings, 'timeZone'>,
    @inject(PasskeyChallenges) private readonly challenges: PasskeyChallenges,
    @inject(RequiredFactor) private readonly required: RequiredFactor,
  ) {}

  /** Options for `navigator.credentials.create()`: a new passkey for the user, none of theirs twice. */
  async registrationOptions(loginType: LoginType, user: PasskeyUser): Promise<CreationOptionsJson> {
    const existing = await this.store.list(loginType, user.userId);
    const options = await this.verifier.creationOptions({
      userHandle: userHandleOf(loginType, user.userId),
      userName: user.username,
      userDisplayName: user.displayName,
      excludeCredentials: existing.map(refOf),
      timeoutMs: this.challenges.timeoutMs,
    });
    await this.challenges.issue(loginType, options.challenge, { ceremony: 'registration', userId: user.userId, userVerification: false });
    return options;
  }

  async list(loginType: LoginType, userId: string): Promise<PasskeyView[]> {
    return (await this.store.list(loginType, userId)).map((p) => viewOf(p, this.settings.timeZone));
  }

  /**
   * Removes one of the user's passkeys; another's, or an unknown id, is `not-found`; the last second factor of a
   * holder of a required role is `last-required-factor` (RequiredFactor).
   */
  async remove(loginType: LoginType, user: FactorHolder, credentialId: string): Promise<void> {
    const notFound = () => new DomainError('not-found', 'You have no passkey with this id.');
    const found = await this.store.find(loginType, credentialId);
    if (found === null || found.userId !== user.userId) throw notFound();
    await this.required.assertRemovable(loginType, user, { kind: 'passkey', credentialId });
    if (!(await this.store.remove(loginType, user.userId, credentialId))) throw notFound();
  }

  /**
   * Options for `navigator.credentials.get()`: for a known user (a second factor, a step-up), their
   * passkeys (none: `passkey-invalid`, as there is nothing to answer with); for `null` (passwordless),
   * any discoverable credential, user verification required.
   */
  async authenticationOptions(loginType: LoginType, userId: string | null): Promise<RequestOptionsJson> {
    const allow = userId === null ? [] : await this.store.list(loginType, userId);
    if (userId !== null && allow.length === 0) throw passkeyInvalid();
    const userVerification = userId === null;
    const options = await this.verifier.requestOptions({
      allowCredentials: allow.map(refOf),
      userVerification: userVerification ? 'required' : 'preferred',
      timeoutMs: this.challenges.timeoutMs,
    });
    await this.challenges.issue(loginType, options.challenge, { ceremony: 'authentication', userId, userVerification });
    return options;
  }

  /**
   * Checks an answer to `authenticationOptions(loginType, expectedUserId)` and records the use (the
   * counter moves forward); every failure is `passkey-invalid` (its cause goes to the debug log).
   */
  async verifyAuthentication(
    loginType: LoginType,
    response: AuthenticationResponseJson,
    expectedUserId: string | null,
  ): Promise<PasskeyProof> {
    const { challenge, binding } = await this.challenges.take(loginType, response, 'authentication', expectedUserId);
    const credential = await this.store.find(loginType, response.id);
    const refuse = (why: string): DomainError => {
      this.log.debug({ loginType, credentialId: response.id.slice(0, 64), why }, 'passkey refused');
      return passkeyInvalid();
    };
    if (credential === null) throw refuse('unknown credential');
    if (expectedUserId !== null && credential.userId !== expectedUserId) throw refuse("another user's credential");
    const handle = response.response.userHandle;
    // A passwordless login must name its user (a discoverable credential always does) and it must be the credential's.
    if ((handle === undefined && expectedUserId === null) || (handle !== undefined && !handleNames(handle, loginType, credential.userId)))
      throw refuse('user handle does not match');
    const verified = await this.verifier.verifyAuthentication(response, {
      challenge,
      requireUserVerification: binding.userVerification,
      credential: { id: credential.id, publicKey: credential.publicKey, counter: credential.counter, transports: credential.transports },
    });
    if (!verified.ok) throw refuse(verified.why);
    const { newCounter, backedUp, userVerified } = verified.value;
    if (!(await this.store.recordUse(loginType, credential.id, { counter: newCounter, usedAt: this.clock.now(), backedUp })))
      throw refuse('counter did not move forward (raced or cloned)');
    const method = credential.deviceType === 'multiDevice' ? 'swk' : 'hwk';
    return { userId: credential.userId, credentialId: credential.id, userVerified, method };
  }
}
