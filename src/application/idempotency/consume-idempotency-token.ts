import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { TOKEN_PATTERN } from '../../domain/idempotency';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import { tokenKey, type ConsumedToken } from './one-time-token';

@injectable()
export class ConsumeIdempotencyToken {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  async execute(input: { readonly scope: string; readonly token: string | undefined }): Promise<ConsumedToken> {
    const token = input.token?.trim() ?? '';
    if (token === '') throw new DomainError('idempotency-token-missing', 'Send the token from GET /idempotent/token in X-Idempotent-Token.');
    const invalid = (): DomainError => {
      this.metrics.idempotencyConflict('TOKEN', 'idempotency-token-invalid');
      return new DomainError('idempotency-token-invalid', 'The idempotency token is unknown, already used or expired; fetch a new one.');
    };
    if (!TOKEN_PATTERN.test(token)) throw invalid();
    const key = tokenKey(input.scope, token);
    const value = await this.kv.getAndDelete(key);
    if (value === null) throw invalid();
    return { key, expiresAt: Number(value) };
  }
}
