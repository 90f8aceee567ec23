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
import { createHash, randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { canonicalJson, decodeIdempotencyRecord, type IdempotencyRecord, type StoredResponse } from '../../domain/idempotency';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './settings';

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

export type BeginResult = { readonly kind: 'proceed'; readonly handle: RunningHandle } | { readonly kind: 'replay'; readonly response: StoredResponse };

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

@injectable()
export class BeginIdempotentRequest {
  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  async execute(input: BeginInput): Promise<BeginResult> {
    // The key is hashed together with its scope: store keys stay short and carry no client text.
    const storeKey = `idem:key:${sha256(canonicalJson({ scope: input.scope, route: input.route, caller: input.caller, key: input.key }))}`;
    const fingerprint = sha256(canonicalJson(input.params));
    const running: IdempotencyRecord = { state: 'running', owner: randomUUID(), fingerprint, startedAt: this.clock.now() };
    const held = JSON.stringify(running);
    const existing = await this.kv.setIfAbsentOrGet(storeKey, held, this.settings.headerLockSeconds * 1000);
    if (existing === null) return { kind: 'proceed', handle: { storeKey, held, fingerprint } };

    const record = decodeIdempotencyRecord(existing);
    if (record === null) throw new Error('unreadable idempotency record');
    if (record.fingerprint !== fingerprint) {
      this.metrics.idempotencyConflict('HEADER', 'idempotency-key-mismatch');
      throw new DomainError('idempotency-key-mismatch', `This ${this.settings.headerName} was already used with a different request; use a new key.`);
    }
    if (record.state === 'running') {
      this.metrics.idempotencyConflict('HEADER', 'idempotency-in-progress');
      throw new DomainError('idempotency-in-progress', `A request with this ${this.settings.headerName} is still being processed; retry shortly.`, {
        retryAfterSeconds: 1,
      });
    }
    return { kind: 'replay', response: record.response };
  }
}

@injectable()
export class CompleteIdempotentRequest {
  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
  ) {}

  /** Stores the response for replay; false if the running record was no longer ours. */
  async execute(input: { readonly handle: RunningHandle; readonly response: StoredResponse }): Promise<boolean> {
    const done: IdempotencyRecord = { state: 'done', fingerprint: input.handle.fingerprint, response: input.response };
    return this.kv.replaceIfEquals(input.handle.storeKey, input.handle.held, JSON.stringify(done), this.settings.headerTtlSeconds * 1000);
  }
}

@injectable()
export class AbandonIdempotentRequest {
  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Removes our running record (the request failed), so the client can retry with the same key. */
  async execute(handle: RunningHandle): Promise<boolean> {
    return this.kv.deleteIfEquals(handle.storeKey, handle.held);
  }
}
