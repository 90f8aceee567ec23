import { inject, injectable } from 'inversify';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { type ParamLock } from './param-lock';

@injectable()
export class ReleaseIdempotencyLock {
  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Releases the lock only if this request still owns it (it may have expired and been retaken). */
  async execute(lock: ParamLock): Promise<boolean> {
    return this.kv.deleteIfEquals(lock.key, lock.owner);
  }
}
