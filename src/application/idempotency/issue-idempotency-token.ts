import { inject, injectable } from 'inversify';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import type { IdempotencySettings } from './idempotency-settings';
import { signToken, type IssuedToken } from './one-time-token';
import type { Reason } from '../../domain/errors';

@injectable()
export class IssueIdempotencyToken {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [];

  constructor(
    @inject(TOKENS.IdempotencySettings) private readonly settings: IdempotencySettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * A signed token (see one-time-token.ts): nothing is written until it is spent.
   * `session`: the token id of the caller's session, which alone may spend the token; absent = anyone.
   */
  async execute(input: { readonly scope: string; readonly session?: string | undefined }): Promise<IssuedToken> {
    const expiresAt = this.clock.now() + this.settings.tokenTtlSeconds * 1000;
    return {
      token: signToken(this.settings.tokenSecrets, input.scope, expiresAt, input.session),
      expiresInSeconds: this.settings.tokenTtlSeconds,
    };
  }
}
