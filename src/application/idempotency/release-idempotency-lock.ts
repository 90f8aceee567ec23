import { inject, injectable } from 'inversify';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { type ParamLock } from './param-lock';
import type { Reason } from '../../domain/errors';

@injectable()
export class ReleaseIdempotencyLock {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Releases the lock only if this request still owns it (it may have expired and been retaken). */
  async execute(lock: ParamLock): Promise<boolean> {
    return this.kv.deleteIfEquals(lock.key, lock.owner);
  }
}
