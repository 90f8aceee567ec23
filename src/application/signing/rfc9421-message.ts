/**
 * RFC 9421 HTTP Message Signatures, the parts shared by the verifier and the CLI signer:
 * reading `Signature-Input` / `Signature` (RFC 8941 dictionaries), the value of each covered
 * component of a request, the signature base, and the RFC 9530 `Content-Digest` of a body.
 * Components are plain identifiers (no component parameters such as `;sf` or `;req`).
 */
import { createHash } from 'node:crypto';
import { parseDictionary, serializeInnerList, type BareItem, type InnerList, type Item, type Parameters } from 'structured-headers';
import { DomainError } from '../../domain/errors';
import { RFC9421_DERIVED_COMPONENTS, signatureBase } from '../../domain/signing';
import { fieldValue, type SignedRequest } from './signed-request';

export interface ParsedSignature {
  readonly label: string;
  /** The covered component identifiers, in the signed order. */
  readonly components: readonly string[];
  readonly params: ReadonlyMap<string, BareItem>;
  /** The `@signature-params` value: the inner list serialised as RFC 8941 says. */
  readonly signatureParams: string;
  readonly signature: Buffer;
}

const invalid = (detail: string): DomainError =>
  new DomainError('sign-input-invalid', `The RFC 9421 signature is not acceptable: ${detail}.`);

function dictionary(text: string, field: string): Map<string, Item | InnerList> {
  try {
    return parseDictionary(text);
  } catch {
    throw invalid(`${field} is not a structured dictionary (RFC 8941)`);
  }
}

function coveredComponent([value, params]: Item): string {
  if (typeof value !== 'string') throw invalid('every covered component must be a quoted string');
  if (params.size > 0) throw invalid(`component parameters are not supported ("${value}")`);
  const derived = value.startsWith('@');
  if (derived ? !RFC9421_DERIVED_COMPONENTS.includes(value) : !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(value)) {
    throw invalid(
      `"${value}" is not a request component this server derives (${RFC9421_DERIVED_COMPONENTS.join(', ')} or a lower-case field name)`,
    );
  }
  return value;
}

/**
 * The first signature of `Signature-Input` and its `Signature` value of the same label (other
 * signatures a client or an intermediary added are not verified).
 */
export function parseSignatureHeaders(signatureInput: string, signature: string): ParsedSignature {
  const [first] = dictionary(signatureInput, 'Signature-Input');
  if (first === undefined) throw invalid('Signature-Input names no signature');
  const [label, member] = first;
  if (!Array.isArray(member[0])) throw invalid(`Signature-Input "${label}" is not an inner list of components`);
  const innerList = member as InnerList;
  const components = innerList[0].map(coveredComponent);
  const duplicate = components.find((c, i) => components.indexOf(c) !== i);
  if (duplicate !== undefined) throw invalid(`"${duplicate}" is covered twice`);
  const sig = dictionary(signature, 'Signature').get(label);
  if (sig === undefined || !(sig[0] instanceof ArrayBuffer)) throw invalid(`Signature has no byte sequence labelled "${label}"`);
  return { label, components, params: innerList[1], signatureParams: serializeInnerList(innerList), signature: Buffer.from(sig[0]) };
}

/** The value of one covered component of a request (RFC 9421 §2.1, §2.2). */
export function componentValue(request: SignedRequest, id: string): string {
  if (!id.startsWith('@')) {
    const value = fieldValue(request, id);
    if (value === undefined) throw invalid(`the covered field "${id}" is not in the request`);
    return value;
  }
  if (id === '@method') return request.method;
  let url: URL | null = null;
  try {
    url = new URL(request.targetUri);
  } catch {
    url = null;
  }
  if (url === null) return ''; // no target URI to compare with: the MAC cannot match
  switch (id) {
    case '@target-uri':
      return request.targetUri; // as received: re-serialising it would change what the client signed
    case '@authority':
      return url.host;
    case '@scheme':
      return url.protocol.slice(0, -1);
    case '@request-target':
      return url.pathname + url.search;
    case '@path':
      return url.pathname || '/';
    default: // '@query': an absent query is "?"
      return url.search || '?';
  }
}

/** The signature base of a request for the given signature (RFC 9421 §2.5). */
export function requestSignatureBase(request: SignedRequest, components: readonly string[], signatureParams: string): string {
  return signatureBase(
    components.map((id) => [id, componentValue(request, id)] as const),
    signatureParams,
  );
}

/** The `@signature-params` value a signer sends (and signs): components, then the parameters in order. */
export function serializeSignatureParams(components: readonly string[], params: ReadonlyArray<readonly [string, string | number]>): string {
  const items: Item[] = components.map((c) => [c, new Map()]);
  return serializeInnerList([items, new Map(params) as Parameters]);
}

/** An RFC 9530 `Content-Digest` value with the sha-256 of the body: `sha-256=:<base64>:`. */
export function contentDigest(body: string | Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** The sha-256 digest a `Content-Digest` value carries, or null when it has none. */
export function sha256OfContentDigest(value: string): Buffer | null {
  const entry = dictionary(value, 'Content-Digest').get('sha-256');
  return entry !== undefined && entry[0] instanceof ArrayBuffer ? Buffer.from(entry[0]) : null;
}
