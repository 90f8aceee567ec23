/**
 * HEADER mode, after the IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header):
 * the first request with a key runs and its response is stored; a retry with the same key and
 * the same payload fingerprint gets the stored response; the same key with another payload is
 * 422; a retry while the first still runs is 409 (Retry-After). Keys are scoped to the app, the
 * route and the caller, so no one can read another caller's stored response.
 *
 * One store round trip to begin (setIfAbsentOrGet), one to complete (replaceIfEquals: only the
 * owner can turn its running record into a done one) or abandon (deleteIfEquals).
 */
import { type StoredResponse } from '../../domain/idempotency';

export interface BeginInput {
  readonly scope: string;
  readonly route: string;
  readonly caller: string;
  /** The Idempotency-Key value (already parsed). */
  readonly key: string;
  /** The request payload (path params, query, body): its fingerprint is stored with the key. */
  readonly params: unknown;
}

/** Held by the request that runs: proof of ownership for complete/abandon. */
export interface RunningHandle {
  readonly storeKey: string;
  readonly held: string;
  readonly fingerprint: string;
}

export type BeginResult =
  { readonly kind: 'proceed'; readonly handle: RunningHandle } | { readonly kind: 'replay'; readonly response: StoredResponse };
