/**
 * Per-account failure cap (beyond the seed specification, ASVS 6.3.1) with device cookies (OWASP, both
 * halves): a failure budget of `maxLoginFailures` failures inside the lock window. A client
 * presenting a valid device cookie is judged on the cookie's own budget, so strangers' failures
 * never lock it out (a spent cookie budget falls back to the shared one: never worse than no
 * cookie). Clients without one share the account's budget; once it is spent they are not refused
 * outright but must solve a captcha (428 captcha-required until they do): an attempt with a solved
 * captcha is admitted and a wrong password still counts. A captcha can be solved by a script, so
 * it is not the bound: after `captchaMaxFailures` more failures, clients without a device cookie
 * are refused (429) until `hardLockSeconds` pass without a failure, at most
 * `maxLoginFailures + captchaMaxFailures` failures per such period (ASVS 2.2.1), while a device
 * cookie's holder still gets in. Unknown usernames are counted exactly like real ones, so the lock
 * reveals nothing about existence.
 *
 * Only failures spend a budget. An attempt holds a place while its password is compared; when
 * the failures plus the places held reach the cap, later attempts wait (bounded) for those
 * ahead of them to settle instead of being refused: parallel correct logins all pass, parallel
 * wrong guesses stop at exactly the cap.
 *
 * Store keys (KeyValueStore), one JSON record per budget, changed by compare-and-set:
 *   loginfail:<type>:<folded name>  -> {failures, lockedUntil, inFlight}   the account's budget
 *   devicefail:<type>:<cookie id>   -> the same, the budget of one device cookie
 *   lockdevices:<type>:<folded name> (ListStore) -> the device budgets that failed on the account (for unlock)
 * `lockedUntil` ends the failure window (below the cap) or the lock (at the cap); `inFlight`
 * maps each attempt being compared to the end of its lease. The reader also accepts the
 * one-letter form `{n, until}` of the previous format.
 */
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { parseJsonObject } from '../../domain/json-record';
import { foldUsername } from '../../domain/username';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { ListStore } from '../ports/list-store';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { LoginType } from '../../domain/login-type';

/** An attempt holding a place in a budget: settle it with `fail` or `succeed`. */
export interface LockAttempt {
  readonly key: string;
  /** `<type>:<folded name>`: the account the attempt is for (its device failures are listed there, for unlock). */
  readonly account: string;
  readonly id: string;
  /** Judged on the account's shared budget (no valid device cookie), not on a cookie's own. */
  readonly shared: boolean;
}

interface LockState {
  readonly failures: number;
  readonly lockedUntil: number;
  readonly inFlight: Readonly<Record<string, number>>;
}

/** An attempt that never settles (its process died) gives its place back after this. */
const LEASE_MS = 30_000;
/** A waiting attempt gives up when nothing ahead of it has settled for this long... */
const IDLE_WAIT_MS = 5_000;
/** ...and in any case after this long. */
const MAX_WAIT_MS = 15_000;
const POLL_MS = 20;
/** Device budgets listed per account for unlock (a cookie's failures beyond this many devices lapse on their own). */
const MAX_LISTED_DEVICES = 200;

const EMPTY: LockState = { failures: 0, lockedUntil: 0, inFlight: {} };

function readState(raw: string | null): LockState | null {
  const o = raw === null ? null : parseJsonObject(raw);
  if (o === null) return null;
  const failures = Number(o.failures ?? o.n);
  const lockedUntil = Number(o.lockedUntil ?? o.until);
  const inFlight: Record<string, number> = {};
  if (typeof o.inFlight === 'object' && o.inFlight !== null) {
    for (const [id, end] of Object.entries(o.inFlight)) if (typeof end === 'number') inFlight[id] = end;
  }
  return Number.isFinite(failures) && Number.isFinite(lockedUntil) ? { failures, lockedUntil, inFlight } : null;
}

/** The budget as it stands at `now`: the failures of an ended window are forgotten, lapsed leases dropped. */
function current(s: LockState | null, now: number): LockState {
  if (s === null) return EMPTY;
  const inFlight = Object.fromEntries(Object.entries(s.inFlight).filter(([, end]) => end > now));
  return s.lockedUntil > now ? { ...s, inFlight } : { ...EMPTY, inFlight };
}

function withoutAttempt(s: LockState, id: string): Readonly<Record<string, number>> {
  return Object.fromEntries(Object.entries(s.inFlight).filter(([k]) => k !== id));
}

/** What a step decided: `next` is written (null deletes the record) unless absent. */
interface Step<T> {
  readonly out: T;
  readonly next?: LockState | null;
}

/** `hard`: refused even with a solved captcha (the captcha cap is reached, or there is no captcha way in). */
type Admission = 'admitted' | 'wait' | { readonly leftMs: number; readonly hard: boolean };

/** What a login attempt brings besides the password. */
export interface LockProof {
  /** The id of a verified device cookie of this account (its own budget), or null. */
  readonly deviceId: string | null;
  /** Whether the attempt solved a captcha: it passes a spent shared budget. */
  readonly captchaSolved: boolean;
}

/** `Retry-After` tells when the account's budget is whole again, for a client that would rather wait than solve a captcha. */
const captchaRequired = (leftMs: number): DomainError =>
  new DomainError(
    'captcha-required',
    'Too many failed logins for this account from unknown clients: solve a captcha and send its uuid and code with the login.',
    {
      retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)),
    },
  );

const locked = (leftMs: number): DomainError =>
  new DomainError('account-locked', 'Too many failed logins for this account; try again later.', {
    retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)),
  });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

@injectable()
export class AccountLock {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['account-locked', 'captcha-required', 'store-unavailable'];

  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.ListStore) private readonly lists: ListStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /**
   * Takes a place in the budget of the device cookie `proof.deviceId` (a verified cookie of this
   * account), else in the account's. A spent cookie budget answers 429 account-locked
   * (`Retry-After` the time left); a spent account budget answers 428 captcha-required unless
   * the attempt solved a captcha, which is then admitted at once. Waits while attempts ahead
   * still hold the last places. Null when the lock is off (`maxLoginFailures` 0).
   */
  async begin(
    loginType: LoginType,
    username: string,
    proof: LockProof = { deviceId: null, captchaSolved: false },
  ): Promise<LockAttempt | null> {
    if (this.settings.maxLoginFailures <= 0) return null;
    const { deviceId } = proof;
    const shared = deviceId === null;
    const account = `${loginType}:${foldUsername(username)}`;
    const key = shared ? `loginfail:${account}` : `devicefail:${loginType}:${deviceId}`;
    const pass = shared && proof.captchaSolved;
    const attempt: LockAttempt = { key, account, id: randomBytes(9).toString('base64url'), shared };
    // The wait runs on real time: it is the time a client is kept waiting, whatever the clock port says.
    const giveUpAt = Date.now() + MAX_WAIT_MS;
    let idleUntil = Date.now() + IDLE_WAIT_MS;
    let seen: string | null | undefined;
    for (;;) {
      const { out, raw } = await this.change(key, (s, now) => this.admit(s, now, attempt.id, pass, shared));
      if (out === 'admitted') return attempt;
      // A device cookie whose own budget is spent is no worse off than a stranger: the shared budget judges it.
      if (out !== 'wait' && !shared) return this.begin(loginType, username, { deviceId: null, captchaSolved: proof.captchaSolved });
      if (out !== 'wait') throw out.hard ? locked(out.leftMs) : captchaRequired(out.leftMs);
      if (raw !== seen) idleUntil = Date.now() + IDLE_WAIT_MS;
      seen = raw;
      // Those ahead are still being compared: after the bound, answer "try again in a moment".
      if (Date.now() >= Math.min(idleUntil, giveUpAt)) throw locked(1000);
      await sleep(POLL_MS + Math.random() * POLL_MS);
    }
  }

  /**
   * Records the attempt's failure. The failure that spends a budget locks it for a full lock
   * period; on the shared budget, with a captcha way in, every failure from then on keeps its
   * record for `hardLockSeconds` after it, so the captcha cap bounds failures per that period
   * however the attacker paces them.
   */
  async fail(attempt: LockAttempt | null): Promise<void> {
    if (attempt === null) return;
    const { maxLoginFailures: max, captchaMaxFailures } = this.settings;
    const { lockSeconds, hardLockSeconds } = this.settings;
    const spentMs = (attempt.shared && captchaMaxFailures > 0 ? Math.max(hardLockSeconds, lockSeconds) : lockSeconds) * 1000;
    await this.change(attempt.key, (s, now) => {
      const failures = s.failures + 1;
      const lockedUntil = failures >= max ? now + spentMs : s.failures === 0 ? now + lockSeconds * 1000 : s.lockedUntil;
      return { out: undefined, next: { failures, lockedUntil, inFlight: withoutAttempt(s, attempt.id) } };
    });
    // A device budget is keyed by its cookie: list it under the account, so that an unlock finds it.
    if (!attempt.shared) await this.lists.append(`lockdevices:${attempt.account}`, attempt.key, MAX_LISTED_DEVICES, lockSeconds * 1000);
  }

  /**
   * When the account's shared budget is spent (failed logins lock it): the time it is whole again
   * (ms), else null. What an administrator sees as "locked until".
   */
  async lockedUntil(loginType: LoginType, username: string): Promise<number | null> {
    if (this.settings.maxLoginFailures <= 0) return null;
    const now = this.clock.now();
    const s = current(readState(await this.kv.get(`loginfail:${loginType}:${foldUsername(username)}`)), now);
    return s.failures >= this.settings.maxLoginFailures ? s.lockedUntil : null;
  }

  /**
   * An administrator's unlock: the account's shared budget and the budget of every device cookie
   * that failed on it are cleared, so the owner gets in at once (attempts in flight keep no place).
   */
  async unlock(loginType: LoginType, username: string): Promise<void> {
    const account = `${loginType}:${foldUsername(username)}`;
    const devices = await this.lists.list(`lockdevices:${account}`);
    await Promise.all([this.kv.delete(`loginfail:${account}`), ...[...new Set(devices)].map((key) => this.kv.delete(key))]);
  }

  /** A successful login clears the failures of the budget it was judged on. */
  async succeed(attempt: LockAttempt | null): Promise<void> {
    if (attempt === null) return;
    await this.change(attempt.key, (s) => {
      const inFlight = withoutAttempt(s, attempt.id);
      return { out: undefined, next: Object.keys(inFlight).length === 0 ? null : { ...EMPTY, inFlight } };
    });
  }

  /**
   * Gives the attempt's place back without counting anything: the attempt ended without a
   * verdict (the directory or the password hasher failed, e.g. 503 server-busy), and must not
   * hold the budget for a whole lease.
   */
  async release(attempt: LockAttempt | null): Promise<void> {
    if (attempt === null) return;
    await this.change(attempt.key, (s) => {
      const inFlight = withoutAttempt(s, attempt.id);
      const empty = s.failures === 0 && Object.keys(inFlight).length === 0;
      return { out: undefined, next: empty ? null : { ...s, inFlight } };
    });
  }

  /**
   * `pass`: a solved captcha on the shared budget, admitted past a spent budget until the captcha
   * cap (`maxLoginFailures + captchaMaxFailures` failures, places held included) is reached.
   */
  private admit(s: LockState, now: number, id: string, pass: boolean, shared: boolean): Step<Admission> {
    const max = this.settings.maxLoginFailures;
    const cap = shared ? max + this.settings.captchaMaxFailures : max;
    const held = s.failures + Object.keys(s.inFlight).length;
    const leftMs = s.lockedUntil - now;
    if (s.failures >= cap) return { out: { leftMs, hard: true } };
    if (s.failures >= max && !pass) return { out: { leftMs, hard: false } };
    if (held >= (pass ? cap : max)) return { out: 'wait' };
    return { out: 'admitted', next: { ...s, inFlight: { ...s.inFlight, [id]: now + LEASE_MS } } };
  }

  /**
   * Reads the record, decides, and writes the decision only if the record is still what was
   * read (compare-and-set); a lost race reads again. Each round some writer wins, so it ends.
   */
  private async change<T>(key: string, decide: (s: LockState, now: number) => Step<T>): Promise<{ out: T; raw: string | null }> {
    for (;;) {
      const raw = await this.kv.get(key);
      const now = this.clock.now();
      const step = decide(current(readState(raw), now), now);
      if (step.next === undefined || (await this.write(key, raw, step.next, now))) return { out: step.out, raw };
    }
  }

  private async write(key: string, raw: string | null, next: LockState | null, now: number): Promise<boolean> {
    if (next === null) return raw === null || (await this.kv.deleteIfEquals(key, raw));
    const leases = Object.values(next.inFlight);
    const ttlMs = Math.max(1, (next.failures > 0 ? next.lockedUntil : 0) - now, ...leases.map((end) => end - now));
    const value = JSON.stringify(next satisfies LockState);
    if (raw === null) return (await this.kv.setIfAbsentOrGet(key, value, ttlMs)) === null;
    return this.kv.replaceIfEquals(key, raw, value, ttlMs);
  }
}
