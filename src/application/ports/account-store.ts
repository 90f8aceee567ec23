/**
 * Changes to one account's credentials and state that the account lifecycle needs (password change
 * and reset, password history, bans, e-mail), for admin users and web members alike. Kept apart
 * from UserDirectory (the read/login port) so that a read-only directory need not implement it.
 * "Not found" and "taken" are values; every call is atomic: nothing is half-written.
 *
 * The state it writes is read back through `UserDirectory` (`DirectoryUser.disabledUntil`,
 * `mustChangePassword`, `email`, ...), so a login sees a change at once, on every instance.
 */
import type { DirectoryUser } from './user-directory';

export interface PasswordChange {
  /** The new BCrypt hash. */
  readonly passwordHash: string;
  /** Sets (admin reset) or clears (the user's own change) the "must change password" mark. */
  readonly mustChange: boolean;
  /**
   * How many earlier hashes to keep after this change (the replaced hash becomes the newest of
   * them; older ones beyond the count are deleted). 0 keeps none.
   */
  readonly keepHistory: number;
  /**
   * Write only while the stored hash is still this one (the hash the caller checked the current
   * password against): a reset or change that landed in between wins, and this call changes nothing.
   */
  readonly expectedHash?: string;
}

/** Enabled, or disabled with an optional reason and an optional end (a timed ban lifts itself at `until`). */
export type AccountStatus =
  { readonly enabled: true } | { readonly enabled: false; readonly reason: string | null; readonly until: number | null };

export type SetEmailResult =
  { readonly ok: true; readonly user: DirectoryUser } | { readonly ok: false; readonly reason: 'user-not-found' | 'email-taken' };

export interface AccountStore {
  /**
   * Replaces the password hash and keeps the old one in the history; null when there is no such
   * user, or when `expectedHash` is given and the stored hash is no longer it (nothing written).
   */
  setPassword(userId: string, change: PasswordChange): Promise<DirectoryUser | null>;
  /** Earlier password hashes of the account (the current one excluded), newest first, at most `limit`. */
  passwordHistory(userId: string, limit: number): Promise<readonly string[]>;
  /** Enables the account (clearing reason and end) or disables it; null when there is no such user. */
  setStatus(userId: string, status: AccountStatus): Promise<DirectoryUser | null>;
  /** The account whose e-mail is `email`, compared case-insensitively (after trimming), or null. */
  findByEmail(email: string): Promise<DirectoryUser | null>;
  /**
   * Sets the account's e-mail (unverified unless `verified`); another account holding the same address
   * (compared case-insensitively) is `email-taken`, also under concurrent calls.
   */
  setEmail(userId: string, email: string, verified: boolean): Promise<SetEmailResult>;
  /**
   * Marks the e-mail verified, but only while the account's e-mail is still `email` (compared
   * case-insensitively); false when it is not (changed since the code was sent) or no such user.
   */
  markEmailVerified(userId: string, email: string): Promise<boolean>;
}

/** The folded form e-mail addresses are compared by: trimmed, then lower case (one account per address). */
export function foldEmail(email: string): string {
  return email.trim().toLowerCase();
}
