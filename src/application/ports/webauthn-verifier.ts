/**
 * The WebAuthn ceremonies' arithmetic (W3C Web Authentication Level 3): the options a browser passes
 * to `navigator.credentials.create()` / `.get()`, and the verification of what it answers (client
 * data, relying-party id hash, origin, flags, attestation, signature, signature counter). The relying
 * party (id, name, accepted origins) belongs to the adapter. Challenges are the caller's business:
 * the adapter makes a fresh random one per options call, and a verification is told which one to
 * expect. Byte strings travel as base64url text, as in the WebAuthn JSON forms.
 */

/** A credential descriptor (`PublicKeyCredentialDescriptorJSON`: `type` is `public-key`). */
export interface CredentialDescriptor {
  readonly id: string;
  readonly type: string;
  readonly transports?: readonly string[];
}

/** A credential an options call names (to allow, or to exclude). */
export interface CredentialRef {
  readonly id: string;
  readonly transports: readonly string[];
}

/** `PublicKeyCredentialCreationOptionsJSON`: the argument of `PublicKeyCredential.parseCreationOptionsFromJSON`. */
export interface CreationOptionsJson {
  readonly rp: { readonly id?: string; readonly name: string };
  readonly user: { readonly id: string; readonly name: string; readonly displayName: string };
  readonly challenge: string;
  readonly pubKeyCredParams: readonly { readonly type: string; readonly alg: number }[];
  readonly timeout?: number;
  readonly excludeCredentials?: readonly CredentialDescriptor[];
  readonly authenticatorSelection?: {
    readonly authenticatorAttachment?: string;
    readonly residentKey?: string;
    readonly requireResidentKey?: boolean;
    readonly userVerification?: string;
  };
  readonly hints?: readonly string[];
  readonly attestation?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** `PublicKeyCredentialRequestOptionsJSON`: the argument of `PublicKeyCredential.parseRequestOptionsFromJSON`. */
export interface RequestOptionsJson {
  readonly challenge: string;
  readonly timeout?: number;
  readonly rpId?: string;
  readonly allowCredentials?: readonly CredentialDescriptor[];
  readonly userVerification?: string;
  readonly hints?: readonly string[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** `RegistrationResponseJSON`: what `credential.toJSON()` gives after `navigator.credentials.create()`. */
export interface RegistrationResponseJson {
  readonly id: string;
  readonly rawId: string;
  readonly type: 'public-key';
  readonly response: {
    readonly clientDataJSON: string;
    readonly attestationObject: string;
    readonly authenticatorData?: string;
    readonly transports?: readonly string[];
    readonly publicKeyAlgorithm?: number;
    readonly publicKey?: string;
  };
  readonly authenticatorAttachment?: string;
  readonly clientExtensionResults: Readonly<Record<string, unknown>>;
}

/** `AuthenticationResponseJSON`: what `credential.toJSON()` gives after `navigator.credentials.get()`. */
export interface AuthenticationResponseJson {
  readonly id: string;
  readonly rawId: string;
  readonly type: 'public-key';
  readonly response: {
    readonly clientDataJSON: string;
    readonly authenticatorData: string;
    readonly signature: string;
    readonly userHandle?: string;
  };
  readonly authenticatorAttachment?: string;
  readonly clientExtensionResults: Readonly<Record<string, unknown>>;
}

export interface CreationInput {
  /** The user handle (`user.id`): opaque bytes, base64url; never a name or an address. */
  readonly userHandle: string;
  readonly userName: string;
  readonly userDisplayName: string;
  /** Credentials the user has already: the authenticator refuses to make a second one beside them. */
  readonly excludeCredentials: readonly CredentialRef[];
  readonly timeoutMs: number;
}

export interface RequestInput {
  /** The user's credentials; empty: any discoverable credential of this relying party (passwordless). */
  readonly allowCredentials: readonly CredentialRef[];
  readonly userVerification: 'required' | 'preferred' | 'discouraged';
  readonly timeoutMs: number;
}

/** A credential a registration produced, as it is to be stored. */
export interface NewCredential {
  readonly id: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly backedUp: boolean;
  readonly userVerified: boolean;
}

/** A stored credential, as an assertion is checked against it. */
export interface KnownCredential {
  readonly id: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
}

export interface VerifiedAssertion {
  readonly credentialId: string;
  /** The authenticator's signature counter now (0 from authenticators that do not count). */
  readonly newCounter: number;
  readonly userVerified: boolean;
  readonly backedUp: boolean;
}

/** A refusal says why, for the log only (the client hears one undifferentiated answer). */
export type Verified<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

export interface WebAuthnVerifier {
  creationOptions(input: CreationInput): Promise<CreationOptionsJson>;
  requestOptions(input: RequestInput): Promise<RequestOptionsJson>;
  /**
   * The challenge a response's client data names, unverified (to find what was issued), or null when
   * the client data cannot be read.
   */
  claimedChallenge(response: RegistrationResponseJson | AuthenticationResponseJson): string | null;
  verifyRegistration(
    response: RegistrationResponseJson,
    expected: { readonly challenge: string; readonly requireUserVerification: boolean },
  ): Promise<Verified<NewCredential>>;
  /**
   * Checks an assertion against the stored credential, its signature counter included: a counter that
   * does not move forward is refused (a cloned authenticator), except 0 after 0 (one that does not count).
   */
  verifyAuthentication(
    response: AuthenticationResponseJson,
    expected: { readonly challenge: string; readonly requireUserVerification: boolean; readonly credential: KnownCredential },
  ): Promise<Verified<VerifiedAssertion>>;
}
