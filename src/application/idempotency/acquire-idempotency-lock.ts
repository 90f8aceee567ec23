import { inject, injectable } from 'inversify';
import { createHash, randomUUID } from 'node:crypto';
import { DomainError, type Reason } from '../../domain/errors';
import { canonicalJson } from '../../domain/idempotency';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './idempotency-settings';
import { type ParamLock, type ParamLockInput } from './param-lock';

@injectable()
export class AcquireIdempotencyLock {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['duplicate-submission', 'store-unavailable'];

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
