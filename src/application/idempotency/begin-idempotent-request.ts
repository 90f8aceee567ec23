import { inject, injectable } from 'inversify';
import { createHash, randomUUID } from 'node:crypto';
import { DomainError, type Reason } from '../../domain/errors';
import { canonicalJson, decodeIdempotencyRecord, type IdempotencyRecord } from '../../domain/idempotency';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import { type BeginInput, type BeginResult } from './idempotency-key';
import type { IdempotencySettings } from './idempotency-settings';

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

@injectable()
export class BeginIdempotentRequest {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['idempotency-key-mismatch', 'idempotency-in-progress', 'store-unavailable'];

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
      throw new DomainError(
        'idempotency-key-mismatch',
        `This ${this.settings.headerName} was already used with a different request; use a new key.`,
      );
    }
    if (record.state === 'running') {
      this.metrics.idempotencyConflict('HEADER', 'idempotency-in-progress');
      throw new DomainError(
        'idempotency-in-progress',
        `A request with this ${this.settings.headerName} is still being processed; retry shortly.`,
        {
          retryAfterSeconds: 1,
        },
      );
    }
    return { kind: 'replay', response: record.response };
  }
}
