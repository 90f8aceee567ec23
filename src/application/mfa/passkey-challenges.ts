/**
 * The challenges of the WebAuthn ceremonies: random (the verifier draws them), single use (taken
 * with `getAndDelete`, so of two answers at most one is checked, right or wrong), expiring
 * (svc.mfa.challenge-ttl-seconds) and bound to what they were issued for: the login type (in the
 * key), the ceremony, the user (null: a passwordless login, whose user the credential names) and
 * whether user verification is required. An answer over any other challenge is `passkey-invalid`.
 */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { parseJsonObject } from '../../domain/json-record';
import type { LoginType } from '../../domain/login-type';
import type { KeyValueStore } from '../ports/key-value-store';
import type { AuthenticationResponseJson, RegistrationResponseJson, WebAuthnVerifier } from '../ports/webauthn-verifier';
import { TOKENS } from '../tokens';
import type { MfaSettings } from './mfa-settings';

export type Ceremony = 'registration' | 'authentication';

export interface ChallengeBinding {
  readonly ceremony: Ceremony;
  /** The user the challenge was issued to; null for a passwordless login. */
  readonly userId: string | null;
  readonly userVerification: boolean;
}

/** WebAuthn challenges are base64url; the verifier's are 32 bytes (43 characters). */
const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/;

export const passkeyInvalid = (): DomainError => new DomainError('passkey-invalid', 'The passkey response could not be verified.');

@injectable()
export class PasskeyChallenges {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.WebAuthnVerifier) private readonly verifier: WebAuthnVerifier,
    @inject(TOKENS.MfaSettings) private readonly settings: Pick<MfaSettings, 'challengeTtlSeconds'>,
  ) {}

  /** How long the browser may take over a ceremony: as long as its challenge lives. */
  get timeoutMs(): number {
    return this.settings.challengeTtlSeconds * 1000;
  }

  async issue(loginType: LoginType, challenge: string, binding: ChallengeBinding): Promise<void> {
    const value = JSON.stringify({ c: binding.ceremony, u: binding.userId, uv: binding.userVerification });
    await this.kv.set(keyOf(loginType, challenge), value, this.timeoutMs);
  }

  /**
   * Takes (spends) the challenge the response answers and returns it with its binding, when it was
   * issued in this login type for this ceremony and, when `userId` is given, this user; else
   * `passkey-invalid`.
   */
  async take(
    loginType: LoginType,
    response: RegistrationResponseJson | AuthenticationResponseJson,
    ceremony: Ceremony,
    userId: string | null,
  ): Promise<{ readonly challenge: string; readonly binding: ChallengeBinding }> {
    const challenge = this.verifier.claimedChallenge(response);
    if (challenge === null || !CHALLENGE.test(challenge)) throw passkeyInvalid();
    const raw = await this.kv.getAndDelete(keyOf(loginType, challenge));
    const record = raw === null ? null : parseJsonObject(raw);
    if (record === null || record.c !== ceremony) throw passkeyInvalid();
    const bound = typeof record.u === 'string' ? record.u : null;
    if (bound !== userId) throw passkeyInvalid();
    return { challenge, binding: { ceremony, userId: bound, userVerification: record.uv === true } };
  }
}

const keyOf = (loginType: LoginType, challenge: string): string => `webauthn:${loginType}:${challenge}`;
