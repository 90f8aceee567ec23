import { inject, injectable } from 'inversify';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './idempotency-settings';
import { tokenKey, type IssuedToken } from './one-time-token';

@injectable()
export class IssueIdempotencyToken {
  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: { readonly scope: string }): Promise<IssuedToken> {
    const token = randomUUID();
    const ttlMs = this.settings.tokenTtlSeconds * 1000;
    await this.kv.set(tokenKey(input.scope, token), String(this.clock.now() + ttlMs), ttlMs);
    return { token, expiresInSeconds: this.settings.tokenTtlSeconds };
  }
}
