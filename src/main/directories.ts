/**
 * The user directories (admin users, web members) chosen by `svc.directory`, created once per
 * process beside the stores, and their container bindings.
 *
 *  - `sql`: MySQL / MariaDB through one mysql2 pool (src/adapters/sql).
 *  - `file` (default): the embedded YAML files (svc.users-file, svc.members-file); changes made
 *    through the service (created users, roles, passwords, account state, e-mail, passkeys, TOTP factors)
 *    live in memory only. In prod, where such a change would silently vanish at the next restart (and
 *    differ between instances), every write refuses with 409 `directory-read-only` instead (enrolling
 *    a second factor included); the reads (logins) work as ever.
 */
import type { Container } from 'inversify';
import type { AccountStore } from '../application/ports/account-store';
import type { MenuCatalogue } from '../application/ports/menu-catalogue';
import type { RoleAdministration } from '../application/ports/role-administration';
import type { Logger } from '../application/ports/logger';
import type { TotpStore } from '../application/ports/totp-store';
import type { PasskeyStore } from '../application/ports/passkey-store';
import type { UserAdministration } from '../application/ports/user-administration';
import type { UserDirectory } from '../application/ports/user-directory';
import { TOKENS } from '../application/tokens';
import type { RouteTable } from '../adapters/koa/route-kit';
import { userAdminRoutes } from '../adapters/koa/routes/user-admin-routes';
import { userMfaRoutes } from '../adapters/koa/routes/user-mfa-routes';
import { userRecordRoutes } from '../adapters/koa/routes/user-record-routes';
import { directoryFailClosed } from '../adapters/sql/fail-closed';
import { createMySqlPool } from '../adapters/sql/mysql-pool';
import { SqlMemberDirectory } from '../adapters/sql/sql-member-directory';
import { SqlUserDirectory } from '../adapters/sql/sql-user-directory';
import { SqlTotpStore } from '../adapters/sql/sql-totp-store';
import { InMemoryTotpStore } from '../adapters/memory/totp-store';
import { InMemoryPasskeyStore } from '../adapters/directory/in-memory-passkey-store';
import { InMemoryUserDirectory } from '../adapters/directory/in-memory-user-directory';
import { SqlPasskeyStore } from '../adapters/sql/sql-passkey-store';
import { SqlMenuCatalogue } from '../adapters/sql/sql-menu-catalogue';
import { SqlRoleAdministration } from '../adapters/sql/sql-role-administration';
import {
  ACCOUNT_WRITES,
  ADMINISTRATION_WRITES,
  DIRECTORY_WRITES,
  MENU_WRITES,
  PASSKEY_WRITES,
  ROLE_WRITES,
  readOnlyDirectory,
  TOTP_ENROLMENT,
} from '../adapters/directory/read-only-directory';
import type { AppConfig } from './config';

export interface Directories {
  readonly admins: UserDirectory;
  readonly members: UserDirectory;
  /** Null when the backend cannot change accounts (a read-only directory). */
  readonly administration: UserAdministration | null;
  /** The passkeys of both login types' accounts, kept where the accounts are. */
  readonly passkeys: PasskeyStore;
  /** Password, state and e-mail changes of admin users (a refusing stand-in where they cannot be kept). */
  readonly adminAccounts: AccountStore;
  /** The same for members. */
  readonly memberAccounts: AccountStore;
  /**
   * TOTP factors of both login types, kept with the accounts: the SQL tables of migration 004, or the process's memory
   * beside the file directory (not shared between instances, so prod refuses enrolment there; docs/sql-directory.md).
   */
  readonly totp: TotpStore;
  /** The admin SPA's menu tree and the roles holding its menus (read-only where the directory is). */
  readonly menus: MenuCatalogue;
  readonly roles: RoleAdministration;
  close(): Promise<void>;
}

export type DirectoryFactory = (config: AppConfig, log: Logger) => Directories;

const FILE_DIRECTORY_WRITES = [...DIRECTORY_WRITES, ...ADMINISTRATION_WRITES, ...ACCOUNT_WRITES] as const;

/**
 * A file directory as the profile allows: dev and test change it in memory; prod refuses every
 * write (directory-read-only, 409), since the change would be lost at the next restart.
 */
export function fileDirectoryFor(config: AppConfig, dir: InMemoryUserDirectory): InMemoryUserDirectory {
  return config.profile === 'prod' ? readOnlyDirectory(dir, FILE_DIRECTORY_WRITES) : dir;
}

/** svc.directory=file: the YAML admin directory (empty, with a warning, when no file is configured). */
export const createFileDirectories: DirectoryFactory = (config, log) => {
  if (config.usersFile === '') log.warn({}, 'svc.users-file is not set: the admin directory is empty');
  const adminFile = config.usersFile === '' ? new InMemoryUserDirectory() : InMemoryUserDirectory.fromFile(config.usersFile);
  if (config.membersFile === '' && config.profile !== 'prod')
    log.warn({}, 'svc.members-file is not set: the member directory starts empty');
  const memberFile = config.membersFile === '' ? new InMemoryUserDirectory() : InMemoryUserDirectory.fromFile(config.membersFile);
  const [admins, members] = [fileDirectoryFor(config, adminFile), fileDirectoryFor(config, memberFile)];
  const prod = config.profile === 'prod';
  const passkeys = prod ? readOnlyDirectory(new InMemoryPasskeyStore(), PASSKEY_WRITES) : new InMemoryPasskeyStore();
  const totp = prod ? readOnlyDirectory(new InMemoryTotpStore(), TOTP_ENROLMENT) : new InMemoryTotpStore();
  const access = adminFile.access;
  return {
    admins,
    members,
    administration: admins,
    adminAccounts: admins,
    memberAccounts: members,
    totp,
    passkeys,
    menus: prod ? readOnlyDirectory<MenuCatalogue>(access, MENU_WRITES) : access,
    roles: prod ? readOnlyDirectory<RoleAdministration>(access, ROLE_WRITES) : access,
    close: async () => undefined,
  };
};

const DIRECTORY_METHODS = ['findByUsername', 'findById', 'create', 'list'] as const;
const ADMINISTRATION_METHODS = [
  'rolePermissions',
  'assignedRoles',
  'setRoles',
  'findUsers',
  'updateProfile',
  'deleteUser',
] as const satisfies readonly (keyof UserAdministration)[];
const ACCOUNT_METHODS = ['setPassword', 'passwordHistory', 'setStatus', 'findByEmail', 'setEmail', 'markEmailVerified'] as const;
const TOTP_METHODS = [
  'savePending',
  'pending',
  'activate',
  'active',
  'acceptStep',
  'useRecoveryCode',
  'recoveryCodesLeft',
  'remove',
] as const satisfies readonly (keyof TotpStore)[];
const PASSKEY_METHODS = ['add', 'find', 'list', 'remove', 'recordUse'] as const;
const MENU_METHODS = [
  'menus',
  'findMenu',
  'createMenu',
  'updateMenu',
  'removeMenu',
  'usersOfMenu',
] as const satisfies readonly (keyof MenuCatalogue)[];
const ROLE_METHODS = [
  'listRoles',
  'findRole',
  'createRole',
  'updateRole',
  'setRoleMenus',
  'removeRole',
  'usersOfRole',
] as const satisfies readonly (keyof RoleAdministration)[];

export const createSqlDirectories: DirectoryFactory = (config, log) => {
  const pool = createMySqlPool(config.datasource);
  const admins = new SqlUserDirectory(pool);
  const members = new SqlMemberDirectory(pool);
  return {
    admins: directoryFailClosed<UserDirectory>(admins, DIRECTORY_METHODS, log),
    members: directoryFailClosed<UserDirectory>(members, DIRECTORY_METHODS, log),
    administration: directoryFailClosed<UserAdministration>(admins, ADMINISTRATION_METHODS, log),
    passkeys: directoryFailClosed<PasskeyStore>(new SqlPasskeyStore(pool), PASSKEY_METHODS, log),
    adminAccounts: directoryFailClosed<AccountStore>(admins, ACCOUNT_METHODS, log),
    memberAccounts: directoryFailClosed<AccountStore>(members, ACCOUNT_METHODS, log),
    totp: directoryFailClosed<TotpStore>(new SqlTotpStore(pool), TOTP_METHODS, log),
    menus: directoryFailClosed<MenuCatalogue>(new SqlMenuCatalogue(pool), MENU_METHODS, log),
    roles: directoryFailClosed<RoleAdministration>(new SqlRoleAdministration(pool), ROLE_METHODS, log),
    close: () => pool.end(),
  };
};

export function createDirectories(config: AppConfig, log: Logger): Directories {
  return config.directory === 'sql' ? createSqlDirectories(config, log) : createFileDirectories(config, log);
}

/** The admin app's account-administration routes, when the directory can change accounts (their use cases need it). */
export function userAdminTables(c: Container): RouteTable[] {
  return c.isBound(TOKENS.UserAdministration) ? [userRecordRoutes, userAdminRoutes, userMfaRoutes] : [];
}
