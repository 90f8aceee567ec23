import { inject, injectable } from 'inversify';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { encodeTokenRecord, type ConsumedToken } from './one-time-token';
import type { Reason } from '../../domain/errors';

@injectable()
export class RestoreIdempotencyToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * Gives a consumed token back (its request failed): a signed token's spent-marker is removed
   * (only ours), a stored token of an earlier release is put back until its original expiry,
   * bound as it was.
   */
  async execute(consumed: ConsumedToken): Promise<void> {
    if (consumed.kind === 'signed') {
      await this.kv.deleteIfEquals(consumed.key, consumed.owner);
      return;
    }
    const left = consumed.expiresAt - this.clock.now();
    if (Number.isFinite(left) && left > 0) await this.kv.setIfAbsent(consumed.key, encodeTokenRecord(consumed), left);
  }
}
