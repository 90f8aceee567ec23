/**
 * Role changes of admin accounts made through this service (the enabled flag and the rest of an
 * account's state: AccountStore). Kept apart from UserDirectory (the read/login port) so a
 * read-only directory need not implement it.
 * "Not found" and "unknown role" are values; nothing is half-written.
 */
import type { DirectoryUser } from './user-directory';

export type AdministrationResult =
  | { readonly ok: true; readonly user: DirectoryUser }
  | { readonly ok: false; readonly reason: 'user-not-found' | 'unknown-role'; readonly detail: string };

/** What roles would grant: every permission a role can hand out, or the keys that name no role. */
export type RoleGrant =
  | { readonly ok: true; readonly permissions: readonly string[] }
  | { readonly ok: false; readonly reason: 'unknown-role'; readonly detail: string };

export interface UserAdministration {
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
