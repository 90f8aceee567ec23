/**
 * A directory whose changes cannot be kept, made read-only: the embedded file directory in prod
 * (svc.directory=file) keeps changes in memory only, so a created account, a new password or a ban
 * would silently vanish at the next restart (or differ between two instances). Every write refuses
 * with `directory-read-only` (409) instead; the reads pass through unchanged.
 */
import type { AccountStore } from '../../application/ports/account-store';
import type { MenuCatalogue } from '../../application/ports/menu-catalogue';
import type { RoleAdministration } from '../../application/ports/role-administration';
import type { PasskeyStore } from '../../application/ports/passkey-store';
import type { UserAdministration } from '../../application/ports/user-administration';
import type { UserDirectory } from '../../application/ports/user-directory';
import { DomainError } from '../../domain/errors';
import { aroundMethods } from '../around-methods';

/** The writes of each directory port (everything else they offer is a read). */
export const DIRECTORY_WRITES = ['create'] as const satisfies readonly (keyof UserDirectory)[];
export const ADMINISTRATION_WRITES = ['setRoles'] as const satisfies readonly (keyof UserAdministration)[];
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

export const READ_ONLY_MESSAGE =
  'Accounts cannot be changed here: this service reads them from the embedded file directory, where a change ' +
  'would be lost at the next restart. To manage accounts through the service, use svc.directory=sql.';

/** `target` with each of `writes` refusing (directory-read-only, 409) before it touches anything; other members pass through. */
export function readOnlyDirectory<T extends object>(target: T, writes: readonly (keyof T)[]): T {
  return aroundMethods(target, writes, () => Promise.reject(new DomainError('directory-read-only', READ_ONLY_MESSAGE)));
}
