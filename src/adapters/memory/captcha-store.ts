/** CaptchaStore in memory: answers expire on the store clock like key-value entries; take removes. */
import type { CaptchaChallenge, CaptchaStore } from '../../application/ports/captcha-store';
import type { Clock } from '../../application/ports/clock';
import { deadlineAfter, ExpiringMap, type Sweepable } from './expiring-map';

/** NUL cannot appear in a scope, so scope + uuid pairs never collide. */
const keyOf = (scope: string, uuid: string): string => `${scope}\u0000${uuid}`;

export class InMemoryCaptchaStore implements CaptchaStore, Sweepable {
  private readonly answers: ExpiringMap<CaptchaChallenge>;

  constructor(private readonly clock: Clock) {
    this.answers = new ExpiringMap(clock);
  }

  async save(scope: string, uuid: string, challenge: CaptchaChallenge, ttlMs: number): Promise<void> {
    const copy = { answer: challenge.answer, expiresAt: challenge.expiresAt };
    this.answers.set(keyOf(scope, uuid), copy, deadlineAfter(this.clock, ttlMs));
  }

  async take(scope: string, uuid: string): Promise<CaptchaChallenge | null> {
    const key = keyOf(scope, uuid);
    const entry = this.answers.live(key);
    if (entry === undefined) return null;
    this.answers.delete(key);
    return entry.value;
  }

  sweep(): number {
    return this.answers.sweep();
  }

  size(): number {
    return this.answers.size();
  }
}
