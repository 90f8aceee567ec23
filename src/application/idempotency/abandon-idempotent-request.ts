import { inject, injectable } from 'inversify';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { type RunningHandle } from './idempotency-key';
import type { Reason } from '../../domain/errors';

@injectable()
export class AbandonIdempotentRequest {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Removes our running record (the request failed), so the client can retry with the same key. */
  async execute(handle: RunningHandle): Promise<boolean> {
    return this.kv.deleteIfEquals(handle.storeKey, handle.held);
  }
}
