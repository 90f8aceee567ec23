/**
 * RFC 9421 HTTP Message Signatures with `hmac-sha256`, keyid = the app key. Checks, in this order:
 * `Signature` present beside `Signature-Input` (sign-headers-missing, 400); the first signature well
 * formed, covering `@method`, `@target-uri` and, with a body, `content-digest`, with `created`,
 * `nonce` and `keyid` parameters and no other `alg` (sign-input-invalid, 400); the nonce well formed
 * (sign-nonce-invalid, 400); `created` within the window and `expires`, if any, not passed
 * (sign-timestamp-invalid); `Content-Digest` equal to the body's sha-256 (sign-digest-mismatch);
 * the HMAC in constant time (sign-invalid: also for an app key not registered for rfc9421, with
 * the same message); and only then the nonce recorded in the store v1 uses (sign-nonce-replayed).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BareItem } from 'structured-headers';
import { DomainError } from '../../domain/errors';
import { NONCE_PATTERN, RFC9421_ALG, RFC9421_BODY_COMPONENT, missingComponents } from '../../domain/signing';
import type { NonceLedger } from './nonce-ledger';
import { parseSignatureHeaders, requestSignatureBase, sha256OfContentDigest, type ParsedSignature } from './rfc9421-message';
import { fieldValue, type SignedRequest } from './signed-request';
import type { SigningApps } from './signing-apps';

export const RFC9421_SIGNATURE_MISMATCH = 'The RFC 9421 Signature does not match the request.';

const invalid = (detail: string): DomainError =>
  new DomainError('sign-input-invalid', `The RFC 9421 signature is not acceptable: ${detail}.`);

interface SignatureParams {
  readonly created: number;
  readonly nonce: string;
  readonly keyid: string;
  readonly expires: number | undefined;
}

const isInteger = (v: BareItem | undefined): v is number => typeof v === 'number' && Number.isInteger(v);

function requiredParams(parsed: ParsedSignature, hasBody: boolean): SignatureParams {
  const missing = missingComponents(parsed.components, hasBody);
  if (missing.length > 0) throw invalid(`it must cover ${missing.map((c) => `"${c}"`).join(', ')}`);
  const [created, nonce, keyid, alg, expires] = ['created', 'nonce', 'keyid', 'alg', 'expires'].map((name) => parsed.params.get(name));
  if (!isInteger(created)) throw invalid('the "created" parameter (an integer of seconds since the epoch) is required');
  if (typeof nonce !== 'string') throw invalid('the "nonce" parameter (a string) is required');
  if (typeof keyid !== 'string' || keyid === '') throw invalid('the "keyid" parameter (your app key, a string) is required');
  if (alg !== undefined && alg !== RFC9421_ALG) throw invalid(`"alg" must be "${RFC9421_ALG}" when given`);
  if (expires !== undefined && !isInteger(expires)) throw invalid('the "expires" parameter must be an integer');
  return { created, nonce, keyid, expires };
}

/** The body against `Content-Digest`, whenever the request has a body or carries the field. */
function checkContentDigest(request: SignedRequest, hasBody: boolean): void {
  const header = fieldValue(request, RFC9421_BODY_COMPONENT);
  if (header === undefined) {
    if (hasBody) throw invalid('a request with a body must carry a Content-Digest (RFC 9530)');
    return;
  }
  const given = sha256OfContentDigest(header);
  if (given === null) throw invalid('Content-Digest must carry a sha-256 digest (sha-256=:<base64>:)');
  const actual = createHash('sha256').update(request.body).digest();
  if (given.length !== actual.length || !timingSafeEqual(given, actual)) {
    throw new DomainError('sign-digest-mismatch', 'The Content-Digest does not match the request body.');
  }
}

/** Verifies an RFC 9421-signed request (`signatureInput` is its `Signature-Input`); returns the app key. */
export async function verifyRfc9421(
  request: SignedRequest,
  signatureInput: string,
  apps: SigningApps,
  ledger: NonceLedger,
  nowMs: number,
): Promise<string> {
  const signature = fieldValue(request, 'signature');
  if (signature === undefined)
    throw new DomainError('sign-headers-missing', 'Missing signing header(s): Signature (sent with Signature-Input).');
  const hasBody = request.body.length > 0;
  const parsed = parseSignatureHeaders(signatureInput, signature);
  const p = requiredParams(parsed, hasBody);
  if (!NONCE_PATTERN.test(p.nonce)) {
    throw new DomainError('sign-nonce-invalid', 'The "nonce" parameter must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-".');
  }
  if (!ledger.inWindow(p.created * 1000, nowMs) || (p.expires !== undefined && p.expires * 1000 < nowMs)) {
    throw new DomainError(
      'sign-timestamp-invalid',
      `"created" must be the current time in seconds (within ±${ledger.timeoutSeconds} s of the ` +
        `server clock), and "expires", if given, not passed.`,
    );
  }
  checkContentDigest(request, hasBody);
  const base = requestSignatureBase(request, parsed.components, parsed.signatureParams);

  const { key, known } = apps.keyFor(p.keyid, 'rfc9421');
  const expected = createHmac('sha256', key).update(base, 'utf8').digest();
  const matches = parsed.signature.length === expected.length && timingSafeEqual(parsed.signature, expected);
  if (!matches || !known) throw new DomainError('sign-invalid', RFC9421_SIGNATURE_MISMATCH);

  await ledger.record(p.keyid, p.nonce, p.created * 1000, nowMs, 'nonce');
  return p.keyid;
}
