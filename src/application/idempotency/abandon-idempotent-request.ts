import { inject, injectable } from 'inversify';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { type RunningHandle } from './idempotency-key';

@injectable()
export class AbandonIdempotentRequest {
  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Removes our running record (the request failed), so the client can retry with the same key. */
  async execute(handle: RunningHandle): Promise<boolean> {
    return this.kv.deleteIfEquals(handle.storeKey, handle.held);
  }
}
