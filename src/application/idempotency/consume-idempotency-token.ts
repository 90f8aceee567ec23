import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { TOKEN_PATTERN } from '../../domain/idempotency';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import { decodeTokenRecord, encodeTokenRecord, tokenKey, type ConsumedToken } from './one-time-token';

@injectable()
export class ConsumeIdempotencyToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['idempotency-token-missing', 'idempotency-token-invalid', 'idempotency-token-session-mismatch', 'store-unavailable'];

  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * Spends the token. `session` is the token id of the caller's session (absent when anonymous):
   * a token bound to another session is refused and given back untouched, so a stranger who saw
   * it can neither spend nor burn it.
   */
  async execute(input: { readonly scope: string; readonly token: string | undefined; readonly session?: string | undefined }): Promise<ConsumedToken> {
    const token = input.token?.trim() ?? '';
    if (token === '') throw new DomainError('idempotency-token-missing', 'Send the token from GET /idempotent/token in X-Idempotent-Token.');
    const refuse = (reason: 'idempotency-token-invalid' | 'idempotency-token-session-mismatch', message: string): DomainError => {
      this.metrics.idempotencyConflict('TOKEN', reason);
      return new DomainError(reason, message);
    };
    const invalid = () => refuse('idempotency-token-invalid', 'The idempotency token is unknown, already used or expired; fetch a new one.');
    if (!TOKEN_PATTERN.test(token)) throw invalid();
    const key = tokenKey(input.scope, token);
    const value = await this.kv.getAndDelete(key);
    const record = value === null ? null : decodeTokenRecord(value);
    if (record === null) throw invalid();
    if (record.session !== null && record.session !== input.session) {
      const left = record.expiresAt - this.clock.now();
      if (left > 0) await this.kv.setIfAbsent(key, encodeTokenRecord(record), left);
      throw refuse(
        'idempotency-token-session-mismatch',
        'This idempotency token was fetched by another session; fetch one with the access token of the session that submits.',
      );
    }
    return { key, ...record };
  }
}
