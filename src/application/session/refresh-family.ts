/**
 * The refresh-token family record (`rf:<type>:<family>`, one key per family) and the token format.
 *
 * Token: `<family>.<gen>.<secret>`: the family id (`<ms>.<16 bytes base64url>`), the rotation
 * count (0 for a login's first token) and 32 base64url characters (24 bytes: an 8-byte tag, the first bytes of
 * HMAC-SHA256(family key, gen), then 16 random bytes). Only a hash of the secret is stored.
 *
 * Record: a JSON array of known shape, no field names:
 * `[1, userId, deviceType, gen, hash, accessHash, rotatedAt, key]`:
 * - `gen`, `hash`: the live token's rotation count and the SHA-256 of its secret (its first 16 bytes, base64url); `hash`
 *   is empty while a rotation is under way (consumed, its successor not yet written).
 * - `accessHash`: the live access token of the family (the one a revocation ends).
 * - `rotatedAt`: when the last token was consumed (ms; 0 before the first rotation).
 * - `key`: the family's tag key (16 bytes, base64url). A presented token of an earlier `gen` whose
 *   tag verifies under it is one this family issued: presenting it again is reuse, however long
 *   ago it was rotated, in constant space. Reading the store gives no usable token (only hashes and
 *   the tag key, with which one can at most revoke a family one could delete anyway).
 * - `deviceType`: the login's device type ('' when unknown: records migrated from earlier releases).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface FamilyState {
  readonly userId: string;
  readonly deviceType: string;
  readonly gen: number;
  readonly hash: string;
  readonly accessHash: string;
  readonly rotatedAt: number;
  readonly key: string;
}

export interface ParsedToken {
  readonly family: string;
  readonly gen: number;
  readonly secret: string;
}

/** The least time a rotation under way (consumed, its successor not yet written) is kept to complete in (ms). */
export const ROTATION_WINDOW_MS = 10_000;

const TOKEN = /^([0-9A-Za-z._-]{1,80})\.(0|[1-9][0-9]{0,8})\.([A-Za-z0-9_-]{32})$/;
const TAG_BYTES = 8;

export const familyKey = (loginType: string, family: string): string => `rf:${loginType}:${family}`;

export function parseToken(token: string): ParsedToken | null {
  const m = TOKEN.exec(token);
  return m === null ? null : { family: m[1] ?? '', gen: Number(m[2]), secret: m[3] ?? '' };
}

const tagOf = (key: string, gen: number): Buffer =>
  createHmac('sha256', Buffer.from(key, 'base64url')).update(String(gen)).digest().subarray(0, TAG_BYTES);

/** The first 16 bytes of the secret's SHA-256, base64url (22 characters): what the record keeps of the live token. */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest().subarray(0, 16).toString('base64url');

/** A new token of the family for rotation `gen`, and the hash to store. */
export function mintToken(family: string, state: Pick<FamilyState, 'key' | 'gen'>): { token: string; hash: string } {
  const secret = Buffer.concat([tagOf(state.key, state.gen), randomBytes(16)]).toString('base64url');
  return { token: `${family}.${state.gen}.${secret}`, hash: hashSecret(secret) };
}

export const newFamilyKey = (): string => randomBytes(16).toString('base64url');

const sameText = (a: string, b: string): boolean => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Whether the token is the family's live one. */
export const isLive = (state: FamilyState, t: ParsedToken): boolean =>
  state.hash !== '' && t.gen === state.gen && sameText(hashSecret(t.secret), state.hash);

/** Whether the token is one this family issued before its live one (its tag verifies, its rotation count is earlier). */
export function isEarlier(state: FamilyState, t: ParsedToken): boolean {
  if (t.gen >= state.gen) return false;
  const given = Buffer.from(t.secret, 'base64url').subarray(0, TAG_BYTES);
  return given.length === TAG_BYTES && timingSafeEqual(given, tagOf(state.key, t.gen));
}

export function encodeFamily(s: FamilyState): string {
  return JSON.stringify([1, s.userId, s.deviceType, s.gen, s.hash, s.accessHash, s.rotatedAt, s.key]);
}

export function decodeFamily(raw: string | null): FamilyState | null {
  if (raw === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length !== 8 || v[0] !== 1) return null;
  const [, userId, deviceType, gen, hash, accessHash, rotatedAt, key] = v as unknown[];
  const strings = [userId, deviceType, hash, accessHash, key].every((x) => typeof x === 'string');
  if (!strings || !Number.isSafeInteger(gen) || typeof rotatedAt !== 'number') return null;
  return {
    userId: userId as string,
    deviceType: deviceType as string,
    gen: gen as number,
    hash: hash as string,
    accessHash: accessHash as string,
    rotatedAt,
    key: key as string,
  };
}
