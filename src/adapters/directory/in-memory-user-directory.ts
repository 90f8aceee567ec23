/**
 * The embedded UserDirectory: accounts read from a YAML file at start-up (config/users.yml in
 * dev and test; the file's shape: ./directory-file.ts). Changes made through the service (created
 * users, roles, passwords, bans, e-mail addresses) are kept in memory only and are gone after a
 * restart; the file is never written (it may be read-only, and a process rewriting its own
 * configuration is a surprise). So in prod it is wrapped read-only (src/main/directories.ts); the
 * SQL directory (svc.directory=sql) is the durable option.
 *
 * Usernames are unique by their folded form (NFKC, then lower case): lookups fold, a file listing
 * two names that differ only in case is refused (which account would `ADMIN` log in as?), and the
 * stored spelling is what every answer shows. E-mail addresses are unique by theirs (trimmed,
 * then lower case: `foldEmail`), in the file and through every change.
 */
import type { AccountStatus, AccountStore, PasswordChange, SetEmailResult } from '../../application/ports/account-store';
import { foldEmail } from '../../application/ports/account-store';
import type {
  AdministrationResult,
  ProfileChange,
  ProfileResult,
  RoleGrant,
  UserAdministration,
  UserQuery,
} from '../../application/ports/user-administration';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import { ALL_PERMISSIONS } from '../../domain/permission';
import { SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import { foldUsername } from '../../domain/username';
import { compareIds, readDirectoryFile, type DirectoryFile } from './directory-file';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedAccess, type RoleBook } from './embedded-access';
import { readMenusFile } from './menus-file';

export { readDirectoryFile, type DirectoryFile } from './directory-file';

/** The embedded admin directory's menu tree, read beside svc.users-file (./menus-file.ts). */
export const MENUS_FILE = 'menus.yml';

/** What the directory keeps per account; the DirectoryUser view is derived from it and the roles. */
interface Account extends Omit<DirectoryUser, 'permissions'> {
  /** Permissions granted to the user directly (`roles`: assigned role keys; a disabled role stays assigned but grants nothing). */
  readonly extra: readonly string[];
  readonly disabledReason: string | null;
  readonly disabledUntil: number | null;
  readonly mustChangePassword: boolean;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly phone: string | null;
  /** Earlier password hashes, newest first. */
  readonly history: readonly string[];
}

/** The account state of an account the file or create() brings in: enabled as given, nothing else set. */
const NO_STATE = {
  disabledReason: null,
  disabledUntil: null,
  mustChangePassword: false,
  email: null,
  emailVerified: false,
  phone: null,
  history: [],
} as const;

const unknownRole = (unknown: readonly string[]) =>
  ({ ok: false, reason: 'unknown-role', detail: `unknown role(s): ${unknown.join(', ')}` }) as const;

/**
 * Same rules as the SQL directory (src/domain/role-permissions.ts): a user's roles are their
 * enabled roles; permissions are the distinct permissions of those roles (plus direct grants);
 * the role `admin` holds `*:*:*`. Synchronous inside, so every change is atomic on the event loop.
 */
export class InMemoryUserDirectory implements UserDirectory, UserAdministration, AccountStore {
  /** Keyed by the folded name (src/domain/username.ts): one account per name, whatever its case. */
  private readonly byName = new Map<string, Account>();
  private readonly byId = new Map<string, Account>();
  /** Account ids keyed by the folded e-mail address (`foldEmail`): one account per address. */
  private readonly byEmail = new Map<string, string>();
  /** The highest numeric id ever held: a new account gets the next one, so a deleted account's id is never reused. */
  private lastId = 0;
  private readonly roles: RoleBook;
  /** The roles and menus (the role and menu administration of this directory). */
  readonly access: EmbeddedAccess;

  /** `access`: the roles and menus (default: the file's roles, no menus); the file's `roles` are then ignored. */
  constructor(data: DirectoryFile = { roles: {}, users: [] }, access?: EmbeddedAccess) {
    this.access = access ?? new EmbeddedAccess(data.roles);
    this.roles = this.access;
    this.access.setHolders((key) => [...this.byId.values()].filter((a) => a.roles.includes(key)).map((a) => a.id));
    for (const u of data.users) {
      const unknown = u.roles.filter((r) => !this.roles.has(r));
      if (unknown.length > 0) throw new Error(`user "${u.username}": unknown role(s) ${unknown.join(', ')}`);
      const same = this.byName.get(foldUsername(u.username));
      if (same !== undefined && same.username !== u.username) {
        throw new Error(
          `users "${same.username}" (id ${same.id}) and "${u.username}" (id ${u.id}) differ only in ` +
            `case or Unicode form; usernames are unique whatever their case, so rename or remove one`,
        );
      }
      if (same !== undefined || this.byId.has(u.id)) throw new Error(`user "${u.username}" (id ${u.id}) is listed twice`);
      const email = u.email === undefined ? null : u.email.trim();
      const holder = email === null ? undefined : this.byEmail.get(foldEmail(email));
      if (holder !== undefined) {
        throw new Error(`users of id ${holder} and ${u.id} have the same e-mail address (addresses are unique whatever their case)`);
      }
      this.put({
        id: u.id,
        username: u.username,
        nickname: u.nickname ?? u.username,
        avatar: u.avatar ?? '',
        passwordHash: u.password,
        enabled: u.enabled,
        roles: u.roles,
        extra: u.permissions,
        ...NO_STATE,
        email,
        emailVerified: email !== null && u.emailVerified === true,
        phone: u.phone ?? null,
      });
    }
  }

  /**
   * Errors name the file: a file the directory cannot load unambiguously stops the start. The menu tree the roles'
   * `menus` name is `menus.yml` beside the file (none there: no menus).
   */
  static fromFile(file: string): InMemoryUserDirectory {
    const data = readDirectoryFile(file);
    const menusFile = path.join(path.dirname(file), MENUS_FILE);
    const menus = existsSync(menusFile) ? readMenusFile(menusFile) : [];
    try {
      return new InMemoryUserDirectory(data, new EmbeddedAccess(data.roles, menus));
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  }

  private view(a: Account): DirectoryUser {
    const roles = [...new Set(a.roles)].filter((r) => this.roles.isEnabled(r));
    return {
      id: a.id,
      username: a.username,
      nickname: a.nickname,
      avatar: a.avatar,
      passwordHash: a.passwordHash,
      enabled: a.enabled,
      roles,
      permissions: this.grantOf(roles, a.extra, true),
      disabledReason: a.disabledReason,
      disabledUntil: a.disabledUntil,
      mustChangePassword: a.mustChangePassword,
      email: a.email,
      emailVerified: a.emailVerified,
      phone: a.phone,
    };
  }

  /**
   * What these roles (and direct grants) hold: the file's order is kept (deduplicated, blanks dropped); the role
   * `admin` holds everything (RuoYi rule). The view passes the enabled roles and counts their enabled menus only
   * (`activeOnly`); rolePermissions every role asked about, every menu.
   */
  private grantOf(roleKeys: readonly string[], extra: readonly string[], activeOnly: boolean): string[] {
    if (roleKeys.includes(SUPER_ADMIN_ROLE)) return [ALL_PERMISSIONS];
    const granted = roleKeys.flatMap((r) => this.roles.permissionsOf(r, activeOnly));
    return [...new Set([...granted, ...extra])].filter((p) => p.trim() !== '');
  }

  /** Stores the account under its id, name and address (dropping the index entry of an address it no longer has). */
  private put(a: Account): void {
    const before = this.byId.get(a.id);
    if (before !== undefined && before.email !== null && before.email !== a.email) this.byEmail.delete(foldEmail(before.email));
    this.byName.set(foldUsername(a.username), a);
    this.byId.set(a.id, a);
    if (a.email !== null) this.byEmail.set(foldEmail(a.email), a.id);
    if (/^\d+$/.test(a.id)) this.lastId = Math.max(this.lastId, Number(a.id));
  }

  /** Applies `change` to the account `userId` and returns its new view; null when there is no such account. */
  private update(userId: string, change: (a: Account) => Partial<Account>): DirectoryUser | null {
    const a = this.byId.get(userId);
    if (a === undefined) return null;
    const updated: Account = { ...a, ...change(a) };
    this.put(updated);
    return this.view(updated);
  }

  /** Another account than `userId` holding the address. */
  private emailHeldByOther(email: string, userId: string | null): boolean {
    const holder = this.byEmail.get(foldEmail(email));
    return holder !== undefined && holder !== userId;
  }

  private unknownRoles(roles: readonly string[]): string[] {
    return roles.filter((r) => !this.roles.has(r));
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    const a = this.byName.get(foldUsername(username));
    return a ? this.view(a) : null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    const a = this.byId.get(id);
    return a ? this.view(a) : null;
  }

  async create(user: NewUser): Promise<CreateUserResult> {
    const unknown = this.unknownRoles(user.roles);
    if (unknown.length > 0) return unknownRole(unknown);
    if (this.byName.has(foldUsername(user.username))) return { ok: false, reason: 'username-taken', detail: 'taken' };
    const email = user.email === undefined ? null : user.email.trim();
    if (email !== null && this.emailHeldByOther(email, null)) return { ok: false, reason: 'email-taken', detail: 'taken' };
    const created: Account = {
      id: String(this.lastId + 1),
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar ?? '',
      passwordHash: user.passwordHash,
      enabled: true,
      roles: [...new Set(user.roles)],
      extra: [],
      ...NO_STATE,
      email,
    };
    this.put(created);
    return { ok: true, user: this.view(created) };
  }

  async rolePermissions(roleKeys: readonly string[]): Promise<RoleGrant> {
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return unknownRole(unknown);
    return { ok: true, permissions: this.grantOf(roleKeys, [], false) };
  }

  async assignedRoles(userId: string): Promise<readonly string[] | null> {
    const a = this.byId.get(userId);
    return a === undefined ? null : [...new Set(a.roles)];
  }

  /** UserAdministration: changes live in memory (the file is never rewritten). */
  async setRoles(userId: string, roleKeys: readonly string[]): Promise<AdministrationResult> {
    if (!this.byId.has(userId)) return { ok: false, reason: 'user-not-found', detail: `no user with id ${userId}` };
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return unknownRole(unknown);
    return { ok: true, user: this.update(userId, () => ({ roles: [...new Set(roleKeys)] })) as DirectoryUser };
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    return this.findUsers({ offset, limit });
  }

  async findUsers(q: UserQuery): Promise<{ total: number; users: DirectoryUser[] }> {
    const part = q.username === undefined ? '' : foldUsername(q.username);
    const all = [...this.byName]
      .filter(([folded, a]) => folded.includes(part) && (q.role === undefined || a.roles.includes(q.role)))
      .map(([, a]) => a)
      .filter((a) => q.status === undefined || a.enabled === (q.status === 'enabled'))
      .sort((a, b) => compareIds(a.id, b.id));
    const offset = Math.max(0, Math.floor(q.offset));
    return { total: all.length, users: all.slice(offset, offset + Math.min(1000, q.limit)).map((a) => this.view(a)) };
  }

  async updateProfile(userId: string, change: ProfileChange): Promise<ProfileResult> {
    const a = this.byId.get(userId);
    if (a === undefined) return { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` };
    const email = change.email === undefined ? a.email : change.email === null ? null : change.email.trim();
    if (email !== null && this.emailHeldByOther(email, userId)) {
      return { ok: false, reason: 'email-taken', detail: 'The e-mail address is already taken.' };
    }
    const sameAddress = email !== null && a.email !== null && foldEmail(email) === foldEmail(a.email);
    const user = this.update(userId, () => ({
      ...(change.nickname !== undefined ? { nickname: change.nickname } : {}),
      ...(change.avatar !== undefined ? { avatar: change.avatar } : {}),
      ...(change.phone !== undefined ? { phone: change.phone } : {}),
      email,
      emailVerified: sameAddress && a.emailVerified,
    }));
    return { ok: true, user: user as DirectoryUser };
  }

  async deleteUser(userId: string): Promise<DirectoryUser | null> {
    const a = this.byId.get(userId);
    if (a === undefined) return null;
    const before = this.view(a);
    this.byId.delete(userId);
    this.byName.delete(foldUsername(a.username));
    if (a.email !== null) this.byEmail.delete(foldEmail(a.email));
    return before;
  }

  // AccountStore: changes live in memory, like every other change.

  async setPassword(userId: string, change: PasswordChange): Promise<DirectoryUser | null> {
    const keep = Math.max(0, Math.floor(change.keepHistory));
    const current = this.byId.get(userId);
    if (current === undefined || (change.expectedHash !== undefined && current.passwordHash !== change.expectedHash)) return null;
    return this.update(userId, (a) => ({
      passwordHash: change.passwordHash,
      mustChangePassword: change.mustChange,
      history: keep === 0 ? [] : [a.passwordHash, ...a.history].slice(0, keep),
    }));
  }

  async passwordHistory(userId: string, limit: number): Promise<readonly string[]> {
    const n = Math.floor(limit);
    return n > 0 ? (this.byId.get(userId)?.history.slice(0, n) ?? []) : [];
  }

  async setStatus(userId: string, status: AccountStatus): Promise<DirectoryUser | null> {
    return this.update(userId, () =>
      status.enabled
        ? { enabled: true, disabledReason: null, disabledUntil: null }
        : { enabled: false, disabledReason: status.reason, disabledUntil: status.until },
    );
  }

  async findByEmail(email: string): Promise<DirectoryUser | null> {
    const id = this.byEmail.get(foldEmail(email));
    return id === undefined ? null : this.findById(id);
  }

  async setEmail(userId: string, email: string, verified: boolean): Promise<SetEmailResult> {
    if (!this.byId.has(userId)) return { ok: false, reason: 'user-not-found' };
    if (this.emailHeldByOther(email, userId)) return { ok: false, reason: 'email-taken' };
    return { ok: true, user: this.update(userId, () => ({ email: email.trim(), emailVerified: verified })) as DirectoryUser };
  }

  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    const a = this.byId.get(userId);
    if (a === undefined || a.email === null || foldEmail(a.email) !== foldEmail(email)) return false;
    this.update(userId, () => ({ emailVerified: true }));
    return true;
  }
}
