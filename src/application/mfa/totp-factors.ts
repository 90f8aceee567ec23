/**
 * TOTP second factors (RFC 6238: SHA-1, 6 digits, 30 s): enrolment (a pending secret, confirmed by a first code,
 * which hands out ten recovery codes once), verification and removal, per login type and account.
 *
 * - Secrets are sealed at rest (SecretBox, AES-256-GCM under svc.mfa.encryption-key; the previous key still opens
 *   them, and a secret opened under it is sealed again under the current key when a code is next accepted).
 * - A code is accepted for the current time step and one step either side (clock drift), compared with every one of
 *   them in constant time; and once: the store's last accepted step only moves forwards, atomically, so a replay within
 *   the window, or a code older than one already accepted, is refused, even by another instance.
 * - Recovery codes are kept as hashes and each is accepted once (recovery-codes.ts).
 *
 * Neither a secret nor a code is ever logged. The login's second step and step-up (the lead's) call `verify`,
 * `useRecoveryCode` and `isEnrolled`; the routes call the use cases beside this file.
 */
import { timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { QrCodes } from '../ports/qr-codes';
import type { TotpAlgorithm } from '../ports/totp-algorithm';
import type { TotpStore } from '../ports/totp-store';
import { TOKENS } from '../tokens';
import { newRecoveryCodes, normaliseRecoveryCode, recoveryCodeHash } from './recovery-codes';
import { SecretBox } from './secret-box';
import type { TotpSettings } from './totp-settings';

/** How long a setup waits for its confirming code. */
export const PENDING_TTL_MS = 10 * 60_000;
/** Steps accepted on either side of the current one (RFC 6238 section 5.2: at most one is recommended). */
export const STEP_WINDOW = 1;

/** What enrolment shows the user once: the secret to type in, the URI and its QR code to scan. */
export interface TotpEnrolment {
  /** base32 (RFC 4648, no padding). */
  readonly secret: string;
  /** `otpauth://totp/<issuer>:<username>?secret=...&issuer=...`. */
  readonly otpauthUrl: string;
  /** The URI as a QR code, a standalone SVG document. */
  readonly qrSvg: string;
}

/** The account a factor belongs to. */
export interface TotpAccount {
  readonly userId: string;
  /** The label authenticator apps show. */
  readonly username: string;
}

const context = (loginType: LoginType, userId: string): string => `totp\n${loginType}\n${userId}`;

@injectable()
export class TotpFactors {
  private readonly box: SecretBox;
  /** What a typed code must look like (after spaces are dropped): the algorithm's number of digits. */
  private readonly codeShape: RegExp;

  constructor(
    @inject(TOKENS.TotpStore) private readonly store: TotpStore,
    @inject(TOKENS.TotpAlgorithm) private readonly algorithm: TotpAlgorithm,
    @inject(TOKENS.QrCodes) private readonly qr: QrCodes,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly log: Logger,
    @inject(TOKENS.TotpSettings) private readonly settings: TotpSettings,
  ) {
    this.box = new SecretBox(settings.encryptionKeys);
    this.codeShape = new RegExp(`^[0-9]{${algorithm.digits}}$`);
  }

  /** A new pending secret (replacing an unconfirmed one); 409 mfa-already-enrolled while a factor is active. */
  async setup(loginType: LoginType, account: TotpAccount): Promise<TotpEnrolment> {
    this.requireKey();
    if ((await this.store.active(loginType, account.userId)) !== null)
      throw new DomainError('mfa-already-enrolled', 'A TOTP factor is already active; remove it before setting up another.');
    const secret = this.algorithm.newSecret();
    const sealed = this.box.seal(secret, context(loginType, account.userId));
    await this.store.savePending(loginType, account.userId, sealed, this.clock.now() + PENDING_TTL_MS);
    const otpauthUrl = this.algorithm.keyUri(secret, this.settings.issuer, account.username);
    return { secret, otpauthUrl, qrSvg: await this.qr.svg(otpauthUrl) };
  }

  /**
   * Activates the pending secret when `code` is one of its codes: the ten recovery codes, shown this once.
   * 409 mfa-setup-missing without a pending secret (none, expired, or confirmed meanwhile); 401 mfa-code-invalid.
   */
  async confirm(loginType: LoginType, userId: string, code: string): Promise<readonly string[]> {
    this.requireKey();
    const sealed = await this.store.pending(loginType, userId, this.clock.now());
    const secret = sealed === null ? null : this.box.open(sealed, context(loginType, userId));
    if (sealed === null || secret === null) {
      if ((await this.store.active(loginType, userId)) !== null)
        throw new DomainError('mfa-already-enrolled', 'A TOTP factor is already active.');
      throw new DomainError('mfa-setup-missing', 'No TOTP setup is waiting for confirmation; start one with POST /auth/mfa/totp/setup.');
    }
    const step = this.matchingStep(secret.plaintext, code, -1);
    if (step === null) throw new DomainError('mfa-code-invalid', 'The code is not valid.', { loginType });
    const codes = newRecoveryCodes();
    const recoveryCodeHashes = codes.map((c) => recoveryCodeHash(loginType, userId, normaliseRecoveryCode(c) ?? c));
    if (!(await this.store.activate(loginType, userId, { pendingSecret: sealed, lastStep: step, recoveryCodeHashes }, this.clock.now())))
      throw new DomainError('mfa-setup-missing', 'The TOTP setup was confirmed or replaced meanwhile.');
    return codes;
  }

  /**
   * Whether `code` is a valid TOTP code of the account's active factor that was not accepted before (false without a
   * factor). Accepting it spends it. 503 mfa-unavailable when the factor's secret opens under no configured key.
   */
  async verify(loginType: LoginType, userId: string, code: string): Promise<boolean> {
    const active = await this.store.active(loginType, userId);
    if (active === null) return false;
    const ctx = context(loginType, userId);
    const secret = this.box.open(active.secret, ctx);
    if (secret === null) {
      this.log.error({ loginType, userId }, 'a TOTP secret opens under no configured key (svc.mfa.encryption-key changed?)');
      throw new DomainError('mfa-unavailable', 'Second factors are unavailable; try again later.', { retryAfterSeconds: 60 });
    }
    const step = this.matchingStep(secret.plaintext, code, active.lastStep);
    if (step === null) return false;
    return this.store.acceptStep(loginType, userId, step, secret.stale ? this.box.seal(secret.plaintext, ctx) : undefined);
  }

  /** Whether `code` is one of the account's unused recovery codes; accepting it spends it. */
  async useRecoveryCode(loginType: LoginType, userId: string, code: string): Promise<boolean> {
    const canonical = normaliseRecoveryCode(code);
    if (canonical === null) return false;
    // The store finds the hash by equality: what it compares are hashes of the input, which tell nothing of the codes.
    return this.store.useRecoveryCode(loginType, userId, recoveryCodeHash(loginType, userId, canonical));
  }

  /** Unused recovery codes of the account. */
  recoveryCodesLeft(loginType: LoginType, userId: string): Promise<number> {
    return this.store.recoveryCodesLeft(loginType, userId);
  }

  /** Whether the account has an active TOTP factor. */
  async isEnrolled(loginType: LoginType, userId: string): Promise<boolean> {
    return (await this.store.active(loginType, userId)) !== null;
  }

  /** Removes the factor, its recovery codes and a pending setup; true when a factor was active. */
  remove(loginType: LoginType, userId: string): Promise<boolean> {
    return this.store.remove(loginType, userId);
  }

  private requireKey(): void {
    if (!this.box.available)
      throw new DomainError('mfa-unavailable', 'TOTP enrolment is unavailable: no encryption key is configured (svc.mfa.encryption-key).');
  }

  /**
   * The latest step within the window, after `after`, whose code `typed` is; null when none. Every step of the
   * window is computed and compared (constant time per comparison), whichever matches, so the time taken does not
   * tell which one did.
   */
  private matchingStep(secret: string, typed: string, after: number): number | null {
    const code = typed.replace(/\s/g, '');
    if (!this.codeShape.test(code)) return null;
    const given = Buffer.from(code, 'ascii');
    const now = Math.floor(this.clock.now() / 1000 / this.algorithm.periodSeconds);
    const steps: number[] = [];
    for (let step = Math.max(0, now - STEP_WINDOW); step <= now + STEP_WINDOW; step++) steps.push(step);
    let found: number | null = null;
    for (const [i, expected] of this.algorithm.codesAt(secret, steps).entries()) {
      const step = steps[i] as number;
      if (timingSafeEqual(given, Buffer.from(expected, 'ascii')) && step > after) found = step;
    }
    return found;
  }
}
