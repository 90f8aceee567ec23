/**
 * A software WebAuthn authenticator for tests (never in src): it answers registration options with
 * a `none` attestation of a fresh ES256 (P-256) key and authentication options with an ES256
 * assertion, as a browser's `credential.toJSON()` would give them, with node:crypto and the small
 * CBOR encoder below (the subset an attestation object and a COSE key need). Its knobs make the
 * answers the server must refuse: another origin or relying party, no user verification, a chosen
 * signature counter (a cloned authenticator replays an old one), a challenge of its own.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | readonly Cbor[] | Map<Cbor, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** CBOR (RFC 8949) of integers, byte and text strings, arrays and maps (in the order given: CTAP2's canonical order is the caller's). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
}

const b64u = (b: Uint8Array): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export interface SoftCredential {
  readonly id: string;
  readonly privateKey: KeyObject;
  readonly rpId: string;
  /** The user handle the registration named (base64url). */
  readonly userHandle: string;
  /** The next signature counter the authenticator reports (it counts up from 1 unless `counting` is false). */
  counter: number;
}

export interface CeremonyKnobs {
  readonly origin?: string;
  readonly rpId?: string;
  /** User verification performed (default true). */
  readonly uv?: boolean;
  /** The challenge to sign instead of the options' one. */
  readonly challenge?: string;
}

export class SoftAuthenticator {
  readonly credentials = new Map<string, SoftCredential>();

  /**
   * `counting: false`: an authenticator that reports 0 every time (allowed by the spec); `synced`: its
   * credentials are backup eligible and backed up (a multi-device, synced passkey).
   */
  constructor(
    private readonly origin: string,
    private readonly counting = true,
    private readonly synced = false,
  ) {}

  /** Answers `navigator.credentials.create()` options: a new credential (a new key, under `credentialId` if given), attestation `none`. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, knobs: CeremonyKnobs & { credentialId?: string } = {}) {
    const rpId = knobs.rpId ?? options.rp.id ?? 'localhost';
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x as string, 'base64url')],
      [-3, Buffer.from(jwk.y as string, 'base64url')],
    ]);
    const rawId = knobs.credentialId === undefined ? randomBytes(16) : Buffer.from(knobs.credentialId, 'base64url');
    const id = b64u(rawId);
    const credential: SoftCredential = { id, privateKey, rpId, userHandle: options.user.id, counter: this.counting ? 1 : 0 };
    this.credentials.set(id, credential);
    const idLength = Buffer.from([rawId.length >> 8, rawId.length & 0xff]);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, cbor(coseKey)]);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(knobs) | FLAG_AT]), this.counterBytes(0), attested]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', knobs.challenge ?? options.challenge, knobs),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * Answers `navigator.credentials.get()` options with `credentialId` (default: the only one, or the
   * first the options allow); `counter` reports that signature counter instead of the next one.
   */
  get(
    options: { challenge: string; allowCredentials?: readonly { id: string }[] },
    knobs: CeremonyKnobs & { credentialId?: string; counter?: number } = {},
  ) {
    const allowed = (options.allowCredentials ?? []).map((c) => c.id);
    const id = knobs.credentialId ?? allowed.find((a) => this.credentials.has(a)) ?? [...this.credentials.keys()][0];
    const credential = id === undefined ? undefined : this.credentials.get(id);
    if (credential === undefined) throw new Error('the soft authenticator holds no such credential');
    const counter = knobs.counter ?? credential.counter;
    if (knobs.counter === undefined && this.counting) credential.counter += 1;
    const authData = Buffer.concat([sha256(knobs.rpId ?? credential.rpId), Buffer.from([this.flags(knobs)]), this.counterBytes(counter)]);
    const clientDataJSON = this.clientData('webauthn.get', knobs.challenge ?? options.challenge, knobs);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON,
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private flags(knobs: CeremonyKnobs): number {
    return FLAG_UP | (knobs.uv === false ? 0 : FLAG_UV) | (this.synced ? FLAG_BE | FLAG_BS : 0);
  }

  private counterBytes(n: number): Buffer {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n, 0);
    return b;
  }

  private clientData(type: string, challenge: string, knobs: CeremonyKnobs): string {
    return b64u(Buffer.from(JSON.stringify({ type, challenge, origin: knobs.origin ?? this.origin, crossOrigin: false })));
  }
}
