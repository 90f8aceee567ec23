/**
 * A directory whose changes cannot be kept, made read-only: the embedded file directory in prod
 * (svc.directory=file) keeps changes in memory only, so a created account, a new password or a ban
 * would silently vanish at the next restart (or differ between two instances). Every write refuses
 * with `directory-read-only` (409) instead; the reads pass through unchanged. The same goes for the
 * second factors kept beside it (passkeys, TOTP): a factor only one process knows is one the other
 * instances, and the same one after a restart, do not ask for.
 */
import type { AccountStore } from '../../application/ports/account-store';
import type { MenuCatalogue } from '../../application/ports/menu-catalogue';
import type { RoleAdministration } from '../../application/ports/role-administration';
import type { PasskeyStore } from '../../application/ports/passkey-store';
import type { TotpStore } from '../../application/ports/totp-store';
import type { UserAdministration } from '../../application/ports/user-administration';
import type { UserDirectory } from '../../application/ports/user-directory';
import { DomainError } from '../../domain/errors';
import { aroundMethods } from '../around-methods';

/** The writes of each directory port (everything else they offer is a read). */
export const DIRECTORY_WRITES = ['create'] as const satisfies readonly (keyof UserDirectory)[];
export const ADMINISTRATION_WRITES = ['setRoles', 'updateProfile', 'deleteUser'] as const satisfies readonly (keyof UserAdministration)[];
export const ACCOUNT_WRITES = [
  'setPassword',
  'setStatus',
  'setEmail',
  'markEmailVerified',
] as const satisfies readonly (keyof AccountStore)[];

export const MENU_WRITES = ['createMenu', 'updateMenu', 'removeMenu'] as const satisfies readonly (keyof MenuCatalogue)[];
export const ROLE_WRITES = [
  'createRole',
  'updateRole',
  'setRoleMenus',
  'removeRole',
] as const satisfies readonly (keyof RoleAdministration)[];

export const PASSKEY_WRITES = ['add', 'remove', 'recordUse'] as const satisfies readonly (keyof PasskeyStore)[];

/**
 * The TOTP calls that enrol a factor: a setup's write, and its confirmation's read of the pending secret and activation
 * (so a confirmation answers directory-read-only as the setup does, not mfa-setup-missing). Nothing being enrolled,
 * the others (a used step, a used recovery code, a removal) find no factor and change nothing, so they pass.
 */
export const TOTP_ENROLMENT = ['savePending', 'pending', 'activate'] as const satisfies readonly (keyof TotpStore)[];

export const READ_ONLY_MESSAGE =
  'Accounts cannot be changed here: this service reads them from the embedded file directory, where a change ' +
  'would be lost at the next restart. To manage accounts through the service, use svc.directory=sql.';

/** `target` with each of `writes` refusing (directory-read-only, 409) before it touches anything; other members pass through. */
export function readOnlyDirectory<T extends object>(target: T, writes: readonly (keyof T)[]): T {
  return aroundMethods(target, writes, () => Promise.reject(new DomainError('directory-read-only', READ_ONLY_MESSAGE)));
}
