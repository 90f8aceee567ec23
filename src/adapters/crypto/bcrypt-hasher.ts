import type { PasswordHasher } from '../../application/ports/password-hasher';
import { isDomainError } from '../../domain/errors';
import type { CryptoWorkerPool } from './worker-pool';
import { isBcryptHash } from '../../domain/password';

/** bcryptjs, run on the worker pool (its async API still blocks the event loop in ~100 ms slices). */
export class PooledBcryptHasher implements PasswordHasher {
  constructor(private readonly pool: CryptoWorkerPool) {}

  hash(password: string, cost: number): Promise<string> {
    return this.pool.run<string>({ op: 'hash', password, cost });
  }

  async verify(password: string, hash: string): Promise<boolean> {
    if (!isBcryptHash(hash)) return false;
    try {
      return await this.pool.run<boolean>({ op: 'verify', password, hash });
    } catch (e) {
      if (isDomainError(e)) throw e; // the pool is saturated: 503, not a failed check
      return false;
    }
  }
}
