/**
 * The passkey routes' bodies and answers: the WebAuthn JSON forms (W3C Web Authentication Level 3,
 * `PublicKeyCredentialCreationOptionsJSON`, `PublicKeyCredentialRequestOptionsJSON`,
 * `RegistrationResponseJSON`, `AuthenticationResponseJSON`), which a browser passes to and gets from
 * `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON` and
 * `credential.toJSON()`, and a passkey as its owner sees it. Members of the responses a browser may
 * add later are ignored (stripped), not refused.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DateTime } from './account-schemas';

extendZodWithOpenApi(z);

/** Base64url without padding, at most `max` characters. */
const b64u = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

const CREDENTIAL_ID = b64u(1400).openapi({ description: 'Credential id, base64url', example: 'kT3Xy0d9mJZ1pYV3dHq8Bg' });
const CHALLENGE = b64u(128).openapi({
  description: 'Random challenge, base64url; single use',
  example: 'Vt6Zt3Vv0h2yq5m1zJjLrQpMzN9vQmB0i1h7yN7mX0c',
});
const TRANSPORTS = z.array(z.string().max(32)).max(16);
const EXTENSIONS = z.record(z.unknown());

const Descriptor = z.object({ id: CREDENTIAL_ID, type: z.string(), transports: TRANSPORTS.optional() });

export const PasskeyCreationOptions = z
  .object({
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({
      id: b64u(128).openapi({ description: 'User handle: opaque bytes, base64url (not the username)' }),
      name: z.string(),
      displayName: z.string(),
    }),
    challenge: CHALLENGE,
    pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number().int() })),
    timeout: z.number().int().optional().openapi({ description: 'ms; the challenge lives as long (svc.mfa.challenge-ttl-seconds)' }),
    excludeCredentials: z.array(Descriptor).optional().openapi({ description: 'Passkeys the user has already' }),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    hints: z.array(z.string()).optional(),
    attestation: z.string().optional(),
    extensions: EXTENSIONS.optional(),
  })
  .openapi('PasskeyCreationOptions', {
    description:
      'WebAuthn PublicKeyCredentialCreationOptionsJSON: pass it to PublicKeyCredential.parseCreationOptionsFromJSON, then ' +
      'navigator.credentials.create({publicKey})',
    example: {
      rp: { id: 'localhost', name: 'authguard' },
      user: { id: 'MQ', name: 'admin', displayName: 'Administrator' },
      challenge: 'Vt6Zt3Vv0h2yq5m1zJjLrQpMzN9vQmB0i1h7yN7mX0c',
      pubKeyCredParams: [
        { type: 'public-key', alg: -8 },
        { type: 'public-key', alg: -7 },
        { type: 'public-key', alg: -257 },
      ],
      timeout: 300000,
      excludeCredentials: [],
      authenticatorSelection: { residentKey: 'preferred', requireResidentKey: false, userVerification: 'preferred' },
      attestation: 'none',
      extensions: { credProps: true },
    },
  });

export const PasskeyRequestOptions = z
  .object({
    challenge: CHALLENGE,
    timeout: z.number().int().optional(),
    rpId: z.string().optional(),
    allowCredentials: z.array(Descriptor).optional().openapi({ description: 'Empty for a passwordless (discoverable) login' }),
    userVerification: z.string().optional(),
    hints: z.array(z.string()).optional(),
    extensions: EXTENSIONS.optional(),
  })
  .openapi('PasskeyRequestOptions', {
    description:
      'WebAuthn PublicKeyCredentialRequestOptionsJSON: pass it to PublicKeyCredential.parseRequestOptionsFromJSON, then ' +
      'navigator.credentials.get({publicKey})',
    example: {
      challenge: 'Vt6Zt3Vv0h2yq5m1zJjLrQpMzN9vQmB0i1h7yN7mX0c',
      timeout: 300000,
      rpId: 'localhost',
      allowCredentials: [],
      userVerification: 'required',
    },
  });

const ResponseCommon = {
  id: CREDENTIAL_ID,
  rawId: CREDENTIAL_ID,
  type: z.literal('public-key'),
  authenticatorAttachment: z.string().max(32).optional(),
  clientExtensionResults: EXTENSIONS.default({}),
};

/** What `credential.toJSON()` gives after `navigator.credentials.create()`. */
export const RegistrationResponse = z
  .object({
    ...ResponseCommon,
    response: z.object({
      clientDataJSON: b64u(8192),
      attestationObject: b64u(65536),
      authenticatorData: b64u(65536).optional(),
      transports: TRANSPORTS.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64u(8192).optional(),
    }),
  })
  .openapi('RegistrationResponse', {
    description: 'WebAuthn RegistrationResponseJSON (`credential.toJSON()` after `create()`)',
    example: {
      id: 'kT3Xy0d9mJZ1pYV3dHq8Bg',
      rawId: 'kT3Xy0d9mJZ1pYV3dHq8Bg',
      type: 'public-key',
      response: {
        clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiVnQ2WnQzVnYwaDJ5cTVtMXpKakxyUSJ9',
        attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVikSZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2NFAAAAAA',
        transports: ['internal', 'hybrid'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    },
  });

/** What `credential.toJSON()` gives after `navigator.credentials.get()`. */
export const AuthenticationResponse = z
  .object({
    ...ResponseCommon,
    response: z.object({
      clientDataJSON: b64u(8192),
      authenticatorData: b64u(8192),
      signature: b64u(2048),
      userHandle: b64u(128)
        .nullish()
        .transform((h) => h ?? undefined),
    }),
  })
  .openapi('AuthenticationResponse', {
    description: 'WebAuthn AuthenticationResponseJSON (`credential.toJSON()` after `get()`)',
    example: {
      id: 'kT3Xy0d9mJZ1pYV3dHq8Bg',
      rawId: 'kT3Xy0d9mJZ1pYV3dHq8Bg',
      type: 'public-key',
      response: {
        clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiVnQ2WnQzVnYwaDJ5cTVtMXpKakxyUSJ9',
        authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
        signature: 'MEUCIQDxK8QmZ6b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9',
        userHandle: 'MQ',
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    },
  });

const PASSKEY_EXAMPLE = {
  id: 'kT3Xy0d9mJZ1pYV3dHq8Bg',
  name: 'Work laptop',
  createdAt: '2026/01/31 14:05:09',
  lastUsedAt: null,
  deviceType: 'multiDevice' as const,
  backedUp: true,
};

export const Passkey = z
  .object({
    id: CREDENTIAL_ID,
    name: z.string().openapi({ description: 'What the user calls it' }),
    createdAt: DateTime,
    lastUsedAt: DateTime.nullable().openapi({ description: 'Last login or step-up with it; null: never used' }),
    deviceType: z.enum(['singleDevice', 'multiDevice']).openapi({ description: 'multiDevice: a synced passkey' }),
    backedUp: z.boolean(),
  })
  .openapi('Passkey', { description: 'A passkey of the signed-in user (no key material)', example: PASSKEY_EXAMPLE });

export const PasskeyList = z
  .array(Passkey)
  .openapi('PasskeyList', { description: "The signed-in user's passkeys, oldest first", example: [PASSKEY_EXAMPLE] });
