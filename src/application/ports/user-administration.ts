/**
 * Role changes, profile edits, deletion and the filtered listing of admin accounts made through
 * this service (the enabled flag and the rest of an account's state: AccountStore). Kept apart
 * from UserDirectory (the read/login port) so a read-only directory need not implement it.
 * "Not found", "unknown role" and "e-mail taken" are values; nothing is half-written.
 */
import type { DirectoryUser } from './user-directory';

export type AdministrationResult =
  | { readonly ok: true; readonly user: DirectoryUser }
  | { readonly ok: false; readonly reason: 'user-not-found' | 'unknown-role'; readonly detail: string };

/** What roles would grant: every permission a role can hand out, or the keys that name no role. */
export type RoleGrant =
  | { readonly ok: true; readonly permissions: readonly string[] }
  | { readonly ok: false; readonly reason: 'unknown-role'; readonly detail: string };

/** What `findUsers` filters by (every given filter applies); an unknown role or a name nobody has matches nothing. */
export interface UserQuery {
  /** Part of the username, compared by folded form (NFKC, then lower case): `ANN` finds `joann`. */
  readonly username?: string;
  /** The account's flag: `enabled` or `disabled` (a timed ban whose end has passed is still `disabled` until enabled). */
  readonly status?: 'enabled' | 'disabled';
  /** A role key the account is assigned (enabled or not): every holder of the role. */
  readonly role?: string;
  readonly offset: number;
  /** At most 1000. */
  readonly limit: number;
}

/**
 * A profile edit: an absent field keeps its value; `email` or `phone` null clears it. A new
 * e-mail address (another folded form) is unverified; the same address respelt keeps its mark.
 */
export interface ProfileChange {
  readonly nickname?: string;
  readonly avatar?: string;
  readonly email?: string | null;
  readonly phone?: string | null;
}

export type ProfileResult =
  | { readonly ok: true; readonly user: DirectoryUser }
  | { readonly ok: false; readonly reason: 'user-not-found' | 'email-taken'; readonly detail: string };

export interface UserAdministration {
  /** Accounts matching `query`, in id order, a page of them, and how many match in all. */
  findUsers(query: UserQuery): Promise<{ total: number; users: DirectoryUser[] }>;
  /** Changes nickname, avatar, e-mail and phone together, or nothing (an address another account holds: email-taken). */
  updateProfile(userId: string, change: ProfileChange): Promise<ProfileResult>;
  /**
   * Deletes the account with its role links and password history; returns it as it was, or null
   * when there is no such user. Its id is never given to another account.
   */
  deleteUser(userId: string): Promise<DirectoryUser | null>;
  /**
   * Every permission these roles could grant, whether or not a role or its menus are enabled
   * today (a disabled role granted now grants its permissions the day it is enabled); the role
   * `admin` grants `*:*:*`. What delegation compares with what the granting caller holds.
   */
  rolePermissions(roleKeys: readonly string[]): Promise<RoleGrant>;
  /**
   * Every role key assigned to the user, enabled or not (a disabled role is dormant, not gone:
   * enabling it gives its holders its permissions again); null when there is no such user.
   */
  assignedRoles(userId: string): Promise<readonly string[] | null>;
  /**
   * Replaces the user's roles with exactly these role keys (duplicates ignored). A key that names
   * no role changes nothing. A disabled role is a known role: it is assigned but grants nothing.
   * Returns the user as a login would now see them.
   */
  setRoles(userId: string, roleKeys: readonly string[]): Promise<AdministrationResult>;
}
