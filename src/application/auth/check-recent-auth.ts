/**
 * Step-up (ASVS 7.5, Sa-Token's `@SaCheckSafe`): a sensitive action needs the session to have
 * proved its user recently. Reads only the session record already in hand: no store round trip.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { SessionRecord } from '../../domain/session';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';

/** When the session's user last authenticated: its step-up or login time (`createdAt` for records that predate authTime). */
export function authTimeOf(record: SessionRecord): number {
  return record.authTime ?? record.createdAt;
}

@injectable()
export class CheckRecentAuth {
  static readonly reasons: readonly Reason[] = ['step-up-required'];

  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /** The default age: svc.step-up.max-age-seconds. */
  get defaultMaxAgeSeconds(): number {
    return this.settings.stepUpMaxAgeSeconds;
  }

  execute(input: { readonly record: SessionRecord; readonly maxAgeSeconds?: number }): void {
    const maxAge = input.maxAgeSeconds ?? this.settings.stepUpMaxAgeSeconds;
    const age = this.clock.now() - authTimeOf(input.record);
    if (age > maxAge * 1000) {
      throw new DomainError(
        'step-up-required',
        `This action needs a re-authentication within the last ${maxAge} seconds: POST /auth/step-up, then retry.`,
      );
    }
  }
}
