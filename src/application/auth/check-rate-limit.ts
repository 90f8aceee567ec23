/** Sliding-window rate limiting as a use case: the edge declares the policy, this applies it. */
import { inject, injectable } from 'inversify';
import type { Clock } from '../ports/clock';
import type { Metrics } from '../ports/metrics';
import type { RateLimitDecision, RateLimitStore } from '../ports/rate-limit-store';
import { TOKENS } from '../tokens';
import type { Reason } from '../../domain/errors';

/**
 * SESSION: per session (its token id) when the request presents one; a request without one is not counted by it.
 * EMAIL: per e-mail address the request body names in `email` (its digest: folded, hashed, never in clear); a body
 * without one is not counted by it (its validation refuses it).
 */
export type LimitType = 'IP' | 'GLOBAL' | 'USER' | 'SESSION' | 'EMAIL';

export interface RateLimitPolicy {
  /** Name of the limit (shown in the RateLimit headers), e.g. "login". */
  readonly key: string;
  readonly windowSeconds: number;
  readonly limit: number;
  readonly limitType: LimitType;
}

@injectable()
export class CheckRateLimit {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.RateLimitStore) private readonly store: RateLimitStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  /** `subject` is the client IP (IP), the user id (USER), the session (SESSION), the address digest (EMAIL) or ignored (GLOBAL). */
  async execute(input: { policy: RateLimitPolicy; scope: string; subject: string }): Promise<RateLimitDecision> {
    const { policy } = input;
    const who = policy.limitType === 'GLOBAL' ? '*' : input.subject;
    const decision = await this.store.hit(
      `${input.scope}:${policy.key}:${policy.limitType}:${who}`,
      policy.limit,
      policy.windowSeconds * 1000,
      this.clock.now(),
    );
    if (!decision.allowed) this.metrics.rateLimitRejected(policy.key);
    return decision;
  }
}
