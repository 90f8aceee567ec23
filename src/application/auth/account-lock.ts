/**
 * Per-account failure cap (beyond the spec, ASVS 6.3.1): after `maxLoginFailures` consecutive
 * failures inside the lock window the username answers 429 until the window ends. Unknown
 * usernames are counted exactly like real ones, so the lock reveals nothing about existence.
 *
 * Store keys (KeyValueStore), per login type and lower-cased username:
 *   loginfail:<type>:<name>    -> {failures, lockedUntil}   the recorded state
 *   loginfail:<type>:<name>:n  -> counter of attempts in the window (atomic increment)
 * The state reader also accepts the one-letter form `{n, until}` of the previous format.
 */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';

/** An attempt counted against the cap: settle it with `fail` or `succeed`. */
export interface LockAttempt {
  readonly key: string;
  readonly count: number;
  readonly ttlMs: number;
}

interface LockState {
  readonly failures: number;
  readonly lockedUntil: number;
}

function readState(raw: string | null): LockState | null {
  if (raw === null) return null;
  try {
    const o = JSON.parse(raw) as Record<string, unknown>;
    const failures = Number(o.failures ?? o.n);
    const lockedUntil = Number(o.lockedUntil ?? o.until);
    return Number.isFinite(failures) && Number.isFinite(lockedUntil) ? { failures, lockedUntil } : null;
  } catch {
    return null;
  }
}

const locked = (leftMs: number): DomainError =>
  new DomainError('account-locked', 'Too many failed logins for this account; try again later.', { retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) });

@injectable()
export class AccountLock {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /**
   * Refuses a locked account (429 account-locked), else counts this attempt as a failure until
   * it proves otherwise. The attempt is counted before the (slow) password compare, so a burst of
   * parallel guesses cannot all pass the check while their compares are still queued.
   * Null when the lock is off (`maxLoginFailures` 0).
   */
  async begin(loginType: string, username: string): Promise<LockAttempt | null> {
    if (this.settings.maxLoginFailures <= 0) return null;
    const key = `loginfail:${loginType}:${username.toLowerCase()}`;
    const state = readState(await this.kv.get(key));
    if (state !== null) {
      const left = state.lockedUntil - this.clock.now();
      if (state.failures >= this.settings.maxLoginFailures && left > 0) throw locked(left);
    }
    return this.reserve(key, false);
  }

  /** Records the attempt's failure; the failure that reaches the cap locks for a full lock period. */
  async fail(attempt: LockAttempt | null): Promise<void> {
    if (attempt === null) return;
    const { key, count, ttlMs } = attempt;
    const now = this.clock.now();
    if (count >= this.settings.maxLoginFailures) {
      const lockMs = this.settings.lockSeconds * 1000;
      await this.kv.set(key, JSON.stringify({ failures: count, lockedUntil: now + lockMs } satisfies LockState), lockMs);
    } else {
      await this.kv.set(key, JSON.stringify({ failures: count, lockedUntil: now + ttlMs } satisfies LockState), Math.max(1, ttlMs));
    }
  }

  /** A successful login clears the account's failures. */
  async succeed(attempt: LockAttempt | null): Promise<void> {
    if (attempt === null) return;
    await this.kv.delete(`${attempt.key}:n`);
    await this.kv.delete(attempt.key);
  }

  /**
   * increment() is atomic; its TTL starts at the first attempt and is not extended. Attempts
   * beyond the cap are refused before any compare, for as long as the count lives.
   */
  private async reserve(key: string, retried: boolean): Promise<LockAttempt> {
    const reserved = await this.kv.increment(`${key}:n`, this.settings.lockSeconds * 1000);
    if (reserved.count <= this.settings.maxLoginFailures) return { key, ...reserved };
    // Over the cap: either a burst whose compares are still running (no lock recorded yet), or a
    // lock whose window has ended by the clock while the counter lingers in the store.
    const state = readState(await this.kv.get(key));
    if (state !== null && state.lockedUntil <= this.clock.now() && !retried) {
      await this.kv.delete(`${key}:n`);
      await this.kv.delete(key);
      return this.reserve(key, true);
    }
    throw locked(state !== null ? state.lockedUntil - this.clock.now() : reserved.ttlMs);
  }
}
