/**
 * The WebAuthnVerifier port on @simplewebauthn/server (MIT): options generation and the
 * verification of attestations (`none`, `packed`, `fido-u2f`, `android-*`, `tpm`, `apple`) and
 * assertions. The relying party is fixed at construction: its id (svc.webauthn.rp-id), the name
 * authenticators show (svc.webauthn.rp-name) and the origins a response may come from (one app's:
 * svc.webauthn.admin-origins or svc.webauthn.web-origins). Every library failure is a refusal with
 * its message (for the log).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type {
  AuthenticationResponseJson,
  CreationInput,
  CreationOptionsJson,
  CredentialRef,
  KnownCredential,
  NewCredential,
  RegistrationResponseJson,
  RequestInput,
  RequestOptionsJson,
  Verified,
  VerifiedAssertion,
  WebAuthnVerifier,
} from '../../application/ports/webauthn-verifier';

export interface RelyingParty {
  /** The registrable domain the credentials belong to (`example.com`; `localhost` in dev). */
  readonly id: string;
  readonly name: string;
  /** Exact origins (`https://app.example.com`) a ceremony may run on. */
  readonly origins: readonly string[];
}

/** EdDSA, ES256, RS256: what authenticators make, offered and accepted alike. */
const ALGORITHMS = [-8, -7, -257];

const TRANSPORTS: ReadonlySet<string> = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The transports WebAuthn names (a client may send others, which mean nothing here). */
function transportsOf(list: readonly string[] | undefined): string[] {
  return (list ?? []).filter((t) => TRANSPORTS.has(t));
}

function descriptors(list: readonly CredentialRef[]): { id: string; transports: string[] }[] {
  return list.map((c) => ({ id: c.id, transports: transportsOf(c.transports) }));
}

const refusal = (e: unknown): { ok: false; why: string } => ({ ok: false, why: e instanceof Error ? e.message : String(e) });

export class SimpleWebAuthnVerifier implements WebAuthnVerifier {
  constructor(private readonly rp: RelyingParty) {}

  async creationOptions(input: CreationInput): Promise<CreationOptionsJson> {
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userID: Buffer.from(input.userHandle, 'base64url'),
      userName: input.userName,
      userDisplayName: input.userDisplayName,
      timeout: input.timeoutMs,
      attestationType: 'none',
      excludeCredentials: descriptors(input.excludeCredentials),
      // A discoverable credential where the authenticator can keep one (passwordless); a security
      // key that cannot still serves as a second factor.
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    return { ...options, extensions: { ...options.extensions } };
  }

  async requestOptions(input: RequestInput): Promise<RequestOptionsJson> {
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      allowCredentials: descriptors(input.allowCredentials),
      userVerification: input.userVerification,
      timeout: input.timeoutMs,
    });
    return { ...options, extensions: { ...options.extensions } };
  }

  claimedChallenge(response: RegistrationResponseJson | AuthenticationResponseJson): string | null {
    try {
      const data: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
      const challenge = (data as { challenge?: unknown } | null)?.challenge;
      return typeof challenge === 'string' && challenge !== '' ? challenge : null;
    } catch {
      return null;
    }
  }

  async verifyRegistration(
    response: RegistrationResponseJson,
    expected: { readonly challenge: string; readonly requireUserVerification: boolean },
  ): Promise<Verified<NewCredential>> {
    try {
      const out = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: expected.challenge,
        expectedOrigin: [...this.rp.origins],
        expectedRPID: this.rp.id,
        requireUserVerification: expected.requireUserVerification,
        supportedAlgorithmIDs: ALGORITHMS,
      });
      if (!out.verified) return { ok: false, why: 'attestation not verified' };
      const info = out.registrationInfo;
      if (info.credential.id !== response.id) return { ok: false, why: 'the credential id is not the one the authenticator made' };
      return {
        ok: true,
        value: {
          id: info.credential.id,
          publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
          counter: info.credential.counter,
          transports: transportsOf(response.response.transports),
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          userVerified: info.userVerified,
        },
      };
    } catch (e) {
      return refusal(e);
    }
  }

  async verifyAuthentication(
    response: AuthenticationResponseJson,
    expected: { readonly challenge: string; readonly requireUserVerification: boolean; readonly credential: KnownCredential },
  ): Promise<Verified<VerifiedAssertion>> {
    const { credential } = expected;
    if (response.id !== credential.id) return { ok: false, why: 'the response names another credential' };
    try {
      const out = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: expected.challenge,
        expectedOrigin: [...this.rp.origins],
        expectedRPID: this.rp.id,
        credential: {
          id: credential.id,
          publicKey: Buffer.from(credential.publicKey, 'base64url'),
          counter: credential.counter,
          transports: transportsOf(credential.transports),
        },
        requireUserVerification: expected.requireUserVerification,
      });
      if (!out.verified) return { ok: false, why: 'signature not verified' };
      const info = out.authenticationInfo;
      return {
        ok: true,
        value: {
          credentialId: info.credentialID,
          newCounter: info.newCounter,
          userVerified: info.userVerified,
          backedUp: info.credentialBackedUp,
        },
      };
    } catch (e) {
      return refusal(e);
    }
  }
}
