/**
 * TOKEN mode: `GET /idempotent/token` issues a one-time UUID; the guarded request sends it in
 * X-Idempotent-Token and it is consumed atomically (getAndDelete: of N concurrent requests
 * exactly one gets it). A request that then fails gives its token back, so a spent token always
 * means a request that succeeded.
 */
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { TOKEN_PATTERN } from '../../domain/idempotency';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './settings';

const tokenKey = (scope: string, token: string): string => `idem:token:${scope}:${token.toLowerCase()}`;

export interface IssuedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
}

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

export interface ConsumedToken {
  readonly key: string;
  /** When the token would have expired (ms), so a give-back keeps its original deadline. */
  readonly expiresAt: number;
}

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

@injectable()
export class RestoreIdempotencyToken {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** Gives a consumed token back (its request failed) until its original expiry. */
  async execute(consumed: ConsumedToken): Promise<void> {
    const left = consumed.expiresAt - this.clock.now();
    if (Number.isFinite(left) && left > 0) await this.kv.setIfAbsent(consumed.key, String(consumed.expiresAt), left);
  }
}
