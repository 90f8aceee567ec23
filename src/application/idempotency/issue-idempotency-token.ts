import { inject, injectable } from 'inversify';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './idempotency-settings';
import { encodeTokenRecord, tokenKey, type IssuedToken } from './one-time-token';
import type { Reason } from '../../domain/errors';

@injectable()
export class IssueIdempotencyToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /** `session`: the token id of the caller's session, which alone may spend the token; absent = anyone. */
  async execute(input: { readonly scope: string; readonly session?: string | undefined }): Promise<IssuedToken> {
    const token = randomUUID();
    const ttlMs = this.settings.tokenTtlSeconds * 1000;
    const record = { expiresAt: this.clock.now() + ttlMs, session: input.session ?? null };
    await this.kv.set(tokenKey(input.scope, token), encodeTokenRecord(record), ttlMs);
    return { token, expiresInSeconds: this.settings.tokenTtlSeconds };
  }
}
