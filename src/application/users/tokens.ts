/**
 * DI identifiers of the user directory ports. Kept beside the user use cases (not in
 * ../tokens.ts) so this module merges without touching the shared token table; Symbol.for keys
 * make the identifiers process-wide.
 */
import type { interfaces } from 'inversify';
import type { UserAdministration } from '../ports/user-administration';
import type { UserDirectory } from '../ports/user-directory';

const id = <T>(name: string): interfaces.ServiceIdentifier<T> => Symbol.for(`authguard.${name}`);

export const USER_TOKENS = {
  /** Admin accounts (login type "admin"). */
  AdminDirectory: id<UserDirectory>('AdminUserDirectory'),
  /** Web members (login type "web"). */
  MemberDirectory: id<UserDirectory>('MemberDirectory'),
  /** Role and enabled-flag changes of admin accounts. */
  UserAdministration: id<UserAdministration>('UserAdministration'),
} as const;
