/**
 * A proof of who someone is (a password, a second factor), checked inside the account's failure
 * budget: what a login, its second step, a step-up and a password change share. The device cookies
 * presented are verified (a valid one of this account is judged on its own budget, AccountLock),
 * a place in the budget is taken, then the proof is checked: a wrong proof is counted against the
 * budget, a right one clears it, and a check that ends without a verdict (the directory or the
 * hasher failed, a step after the proof refused) gives its place back without counting anything.
 */
import { inject, injectable } from 'inversify';
import type { DomainError, Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { AccountLock, type LockAttempt } from './account-lock';
import { DeviceCookies } from './device-cookies';

/** What a proof decided: right (with what it found), or wrong (with the error the caller answers). */
export type ProofVerdict<T> =
  { readonly ok: true; readonly value: T; readonly clearsBudget: boolean } | { readonly ok: false; readonly error: DomainError };

/**
 * A right proof. `clearsBudget` false: the proof was right but the sign-in is not complete (a second factor is still
 * owed), so the place goes back and the budget is left as it is: the next step's failures count in it too.
 */
export const proved = <T>(value: T, clearsBudget = true): ProofVerdict<T> => ({ ok: true, value, clearsBudget });
export const refused = (error: DomainError): ProofVerdict<never> => ({ ok: false, error });

/** Whose budget the proof is checked in. */
export interface ProofAttempt {
  readonly loginType: LoginType;
  readonly username: string;
  /** Every device cookie value the client presented. */
  readonly deviceCookies: readonly string[];
  /** The attempt solved a captcha: it passes a spent shared budget. */
  readonly captchaSolved?: boolean;
  /** How the place is taken, when not by AccountLock.begin alone (a login answers a 428 with the captcha it brought). */
  readonly admit?: (deviceId: string | null) => Promise<LockAttempt | null>;
}

@injectable()
export class GuardedProof {
  /** The failures this use case may raise besides the proof's own (its collaborators' included). */
  static readonly reasons: readonly Reason[] = [...AccountLock.reasons];

  constructor(
    @inject(AccountLock) private readonly lock: AccountLock,
    @inject(DeviceCookies) private readonly devices: DeviceCookies,
  ) {}

  /**
   * Runs `prove` holding a place in the budget: its value when it proves, its error (counted as a
   * failure) when it refuses; anything it throws gives the place back and is thrown on.
   */
  async execute<T>(attempt: ProofAttempt, prove: () => Promise<ProofVerdict<T>>): Promise<T> {
    const { loginType, username } = attempt;
    const deviceId = await this.devices.verify(loginType, username, attempt.deviceCookies);
    const place =
      attempt.admit !== undefined
        ? await attempt.admit(deviceId)
        : await this.lock.begin(loginType, username, { deviceId, captchaSolved: attempt.captchaSolved ?? false });
    let verdict: ProofVerdict<T>;
    try {
      verdict = await prove();
    } catch (e) {
      // No verdict: the place goes back, nothing is counted.
      await this.lock.release(place);
      throw e;
    }
    if (!verdict.ok) {
      await this.lock.fail(place);
      throw verdict.error;
    }
    await (verdict.clearsBudget ? this.lock.succeed(place) : this.lock.release(place));
    return verdict.value;
  }
}
