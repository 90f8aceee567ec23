import { inject, injectable } from 'inversify';
import { type IdempotencyRecord, type StoredResponse } from '../../domain/idempotency';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { type RunningHandle } from './idempotency-key';
import type { IdempotencySettings } from './idempotency-settings';
import type { Reason } from '../../domain/errors';

@injectable()
export class CompleteIdempotentRequest {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

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
