/**
 * Where TOTP factors live, per account (login type and user id): with the accounts (the SQL directory's tables, or
 * in memory beside the file directory). The store holds what it is given: secrets arrive sealed (SecretBox) and
 * recovery codes as hashes; it never sees a plaintext secret or code.
 *
 * Every method that decides whether something is accepted is atomic, so two instances sharing the store cannot both
 * accept one code: `acceptStep` advances the last accepted time step only forwards, `useRecoveryCode` removes a hash
 * once, `activate` turns a pending secret into the active one once.
 */
import type { LoginType } from '../../domain/login-type';

/** An account's active TOTP factor. */
export interface ActiveTotp {
  /** The sealed secret. */
  readonly secret: string;
  /** The last time step a code was accepted for (codes of it and earlier steps are refused). */
  readonly lastStep: number;
}

/** What confirming an enrolment stores. */
export interface TotpActivation {
  /** The pending secret being confirmed, exactly as `pending` returned it (a newer setup since makes activation fail). */
  readonly pendingSecret: string;
  /** The time step of the code that confirmed it (so that code cannot be used again). */
  readonly lastStep: number;
  /** Hashes of the new recovery codes; they replace any earlier ones. */
  readonly recoveryCodeHashes: readonly string[];
}

export interface TotpStore {
  /** Keeps `secret` (sealed) as the account's pending secret until `expiresAt` (epoch ms), replacing an earlier one. */
  savePending(loginType: LoginType, userId: string, secret: string, expiresAt: number): Promise<void>;
  /** The pending secret (sealed), or null when there is none or it expired by `now` (epoch ms). */
  pending(loginType: LoginType, userId: string, now: number): Promise<string | null>;
  /**
   * Atomically: when `activation.pendingSecret` is still the account's unexpired pending secret and no factor is
   * active, makes it the active one with its last step and recovery codes, and drops the pending one. False (and
   * nothing changed) otherwise.
   */
  activate(loginType: LoginType, userId: string, activation: TotpActivation, now: number): Promise<boolean>;
  /** The active factor, or null. */
  active(loginType: LoginType, userId: string): Promise<ActiveTotp | null>;
  /**
   * Atomically records `step` as the last accepted step when it is later than the stored one (and, when `resealed` is
   * given, replaces the sealed secret with it: sealed again under a new key). False when it is not later (a replay, or
   * a code older than one already accepted) or no factor is active.
   */
  acceptStep(loginType: LoginType, userId: string, step: number, resealed?: string): Promise<boolean>;
  /** Atomically removes one recovery code hash: true when it was there (so each code is accepted once). */
  useRecoveryCode(loginType: LoginType, userId: string, hash: string): Promise<boolean>;
  /** How many recovery codes the account has left. */
  recoveryCodesLeft(loginType: LoginType, userId: string): Promise<number>;
  /** Removes the active factor, a pending secret and the recovery codes; true when a factor was active. */
  remove(loginType: LoginType, userId: string): Promise<boolean>;
}
