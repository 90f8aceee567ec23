/** A captcha's expected answer and the moment it stops being accepted (ms, app clock). */
export interface CaptchaChallenge {
  readonly answer: string;
  readonly expiresAt: number;
}

/**
 * The answers of issued captchas, keyed by login type (scope) and a random uuid. Single use:
 * `take` reads and removes in one atomic step, so of concurrent verifications of one captcha at
 * most one sees the answer. The store owns expiry (`ttlMs`); callers keep an entry a little longer
 * than `expiresAt` so a late answer can be told "expired" rather than "unknown".
 */
export interface CaptchaStore {
  save(scope: string, uuid: string, challenge: CaptchaChallenge, ttlMs: number): Promise<void>;
  take(scope: string, uuid: string): Promise<CaptchaChallenge | null>;
}
