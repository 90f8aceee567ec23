import { inject, injectable } from 'inversify';
import { randomUUID } from 'node:crypto';
import { DomainError, type Reason } from '../../domain/errors';
import { TOKEN_PATTERN } from '../../domain/idempotency';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './idempotency-settings';
import {
  decodeTokenRecord,
  encodeTokenRecord,
  sessionDigestOf,
  spentKey,
  tokenKey,
  verifyToken,
  type ConsumedToken,
} from './one-time-token';

type Refusal = 'idempotency-token-invalid' | 'idempotency-token-session-mismatch';

const INVALID = 'The idempotency token is unknown, already used or expired; fetch a new one.';
const MISMATCH = 'This idempotency token was fetched by another session; fetch one with the access token of the session that submits.';

@injectable()
export class ConsumeIdempotencyToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    'idempotency-token-missing',
    'idempotency-token-invalid',
    'idempotency-token-session-mismatch',
    'store-unavailable',
  ];

  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * Spends the token. `session` is the token id of the caller's session (absent when anonymous):
   * a token bound to another session is refused and left untouched, so a stranger who saw it can
   * neither spend nor burn it.
   */
  async execute(input: {
    readonly scope: string;
    readonly token: string | undefined;
    readonly session?: string | undefined;
  }): Promise<ConsumedToken> {
    const token = input.token?.trim() ?? '';
    if (token === '')
      throw new DomainError('idempotency-token-missing', 'Send the token from GET /idempotent/token in X-Idempotent-Token.');
    if (TOKEN_PATTERN.test(token)) return this.spendStored(input.scope, token, input.session);
    const claims = verifyToken(this.settings.tokenSecrets, input.scope, token);
    const left = claims === null ? 0 : claims.expiresAt - this.clock.now();
    if (claims === null || left <= 0) throw this.refuse('idempotency-token-invalid', INVALID);
    if (claims.sessionDigest !== null && (input.session === undefined || sessionDigestOf(input.session) !== claims.sessionDigest)) {
      throw this.refuse('idempotency-token-session-mismatch', MISMATCH);
    }
    // The one store write of a token's life: of concurrent spenders exactly one creates the marker.
    const key = spentKey(input.scope, claims.nonce);
    const owner = randomUUID();
    if (!(await this.kv.setIfAbsent(key, owner, left))) throw this.refuse('idempotency-token-invalid', INVALID);
    return { kind: 'signed', key, owner };
  }

  /** A token stored by an earlier release: taken from the store (GETDEL); a bound one spent by another session is put back. */
  private async spendStored(scope: string, token: string, session: string | undefined): Promise<ConsumedToken> {
    const key = tokenKey(scope, token);
    const value = await this.kv.getAndDelete(key);
    const record = value === null ? null : decodeTokenRecord(value);
    if (record === null) throw this.refuse('idempotency-token-invalid', INVALID);
    if (record.session !== null && record.session !== session) {
      const left = record.expiresAt - this.clock.now();
      if (left > 0) await this.kv.setIfAbsent(key, encodeTokenRecord(record), left);
      throw this.refuse('idempotency-token-session-mismatch', MISMATCH);
    }
    return { kind: 'stored', key, ...record };
  }

  private refuse(reason: Refusal, message: string): DomainError {
    this.metrics.idempotencyConflict('TOKEN', reason);
    return new DomainError(reason, message);
  }
}
