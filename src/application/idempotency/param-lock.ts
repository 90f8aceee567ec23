/**
 * PARAM mode: a set-if-absent lock keyed by app + route + caller + SHA-256 of the canonical
 * parameters. A duplicate while the lock is held is refused; the owner releases the lock when
 * its request failed, so the user can retry at once; after a success it lives out its TTL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { canonicalJson } from '../../domain/idempotency';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './settings';

export interface ParamLockInput {
  /** The app (admin / web): the same route on two apps never shares a lock. */
  readonly scope: string;
  /** Method and path template, e.g. "POST /system/user". */
  readonly route: string;
  /** "admin:42" for a logged-in user, "ip:203.0.113.7" otherwise. */
  readonly caller: string;
  /** Path parameters, query and body: anything JSON-like. */
  readonly params: unknown;
  /** Lock lifetime; the configured default when absent. */
  readonly ttlSeconds?: number;
}

export interface ParamLock {
  readonly key: string;
  readonly owner: string;
}

@injectable()
export class AcquireIdempotencyLock {
  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  async execute(input: ParamLockInput): Promise<ParamLock> {
    const digest = createHash('sha256')
      .update(canonicalJson({ scope: input.scope, route: input.route, caller: input.caller, params: input.params }))
      .digest('hex');
    const key = `idem:param:${digest}`;
    const owner = randomUUID();
    const ttlSeconds = input.ttlSeconds ?? this.settings.paramTtlSeconds;
    if (!(await this.kv.setIfAbsent(key, owner, ttlSeconds * 1000))) {
      this.metrics.idempotencyConflict('PARAM', 'duplicate-submission');
      throw new DomainError('duplicate-submission', 'The same request is already being processed; do not submit it twice.');
    }
    return { key, owner };
  }
}

@injectable()
export class ReleaseIdempotencyLock {
  constructor(@inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore) {}

  /** Releases the lock only if this request still owns it (it may have expired and been retaken). */
  async execute(lock: ParamLock): Promise<boolean> {
    return this.kv.deleteIfEquals(lock.key, lock.owner);
  }
}
