/**
 * A small in-memory UserDirectory + UserAdministration + AccountStore for tests: the reference the
 * contract is written against, and a stand-in wherever a test needs a directory without a database.
 */
import { effectivePermissions } from '../../src/domain/role-permissions';
import { foldUsername } from '../../src/domain/username';
import {
  foldEmail,
  type AccountStatus,
  type AccountStore,
  type PasswordChange,
  type SetEmailResult,
} from '../../src/application/ports/account-store';
import type {
  AdministrationResult,
  ProfileChange,
  ProfileResult,
  RoleGrant,
  UserAdministration,
  UserQuery,
} from '../../src/application/ports/user-administration';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../src/application/ports/user-directory';

export interface MemoryRole {
  readonly key: string;
  readonly enabled: boolean;
  readonly permissions: readonly string[];
}

interface Row {
  readonly id: string;
  readonly username: string;
  nickname: string;
  avatar: string;
  phone: string | null;
  passwordHash: string;
  enabled: boolean;
  roles: string[];
  disabledReason: string | null;
  disabledUntil: number | null;
  mustChangePassword: boolean;
  email: string | null;
  emailVerified: boolean;
  /** Earlier hashes, newest first. */
  history: string[];
}

export class MemoryUserDirectory implements UserDirectory, UserAdministration, AccountStore {
  private readonly roles: Map<string, MemoryRole>;
  private readonly rows = new Map<string, Row>();
  private nextId = 1;

  constructor(roles: readonly MemoryRole[]) {
    this.roles = new Map(roles.map((r) => [r.key, r]));
  }

  private view(r: Row): DirectoryUser {
    const enabledRoles = r.roles.filter((k) => this.roles.get(k)?.enabled === true).sort();
    const perms = enabledRoles.flatMap((k) => this.roles.get(k)?.permissions ?? []);
    return {
      id: r.id,
      username: r.username,
      nickname: r.nickname,
      avatar: r.avatar,
      passwordHash: r.passwordHash,
      enabled: r.enabled,
      roles: enabledRoles,
      permissions: effectivePermissions(enabledRoles, perms),
      disabledReason: r.disabledReason,
      disabledUntil: r.disabledUntil,
      mustChangePassword: r.mustChangePassword,
      email: r.email,
      emailVerified: r.emailVerified,
      phone: r.phone,
    };
  }

  private unknownRoles(keys: readonly string[]): string[] {
    return [...new Set(keys)].filter((k) => !this.roles.has(k));
  }

  /** The row holding the address (compared folded), if any. */
  private rowByEmail(email: string): Row | undefined {
    const folded = foldEmail(email);
    return [...this.rows.values()].find((r) => r.email !== null && foldEmail(r.email) === folded);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    const folded = foldUsername(username);
    for (const r of this.rows.values()) if (foldUsername(r.username) === folded) return this.view(r);
    return null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    const r = this.rows.get(id);
    return r ? this.view(r) : null;
  }

  async create(user: NewUser): Promise<CreateUserResult> {
    const unknown = this.unknownRoles(user.roles);
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `No such role: ${unknown.join(', ')}` };
    if (await this.findByUsername(user.username))
      return { ok: false, reason: 'username-taken', detail: `The username "${user.username}" is already taken.` };
    if (user.email !== undefined && this.rowByEmail(user.email))
      return { ok: false, reason: 'email-taken', detail: 'The e-mail address is already taken.' };
    const row: Row = {
      id: String(this.nextId++),
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar ?? '',
      phone: null,
      passwordHash: user.passwordHash,
      enabled: true,
      roles: [...new Set(user.roles)],
      disabledReason: null,
      disabledUntil: null,
      mustChangePassword: false,
      email: user.email === undefined ? null : user.email.trim(),
      emailVerified: false,
      history: [],
    };
    this.rows.set(row.id, row);
    return { ok: true, user: this.view(row) };
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    const all = [...this.rows.values()].sort((a, b) => Number(a.id) - Number(b.id));
    return { total: all.length, users: all.slice(offset, offset + limit).map((r) => this.view(r)) };
  }

  async findUsers(q: UserQuery): Promise<{ total: number; users: DirectoryUser[] }> {
    const part = foldUsername(q.username ?? '');
    const all = [...this.rows.values()]
      .filter((r) => foldUsername(r.username).includes(part))
      .filter((r) => q.status === undefined || r.enabled === (q.status === 'enabled'))
      .filter((r) => q.role === undefined || r.roles.includes(q.role))
      .sort((a, b) => Number(a.id) - Number(b.id));
    return { total: all.length, users: all.slice(q.offset, q.offset + q.limit).map((r) => this.view(r)) };
  }

  async updateProfile(userId: string, change: ProfileChange): Promise<ProfileResult> {
    const row = this.rows.get(userId);
    if (!row) return { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` };
    if (typeof change.email === 'string') {
      const holder = this.rowByEmail(change.email);
      if (holder !== undefined && holder !== row)
        return { ok: false, reason: 'email-taken', detail: 'The e-mail address is already taken.' };
    }
    if (change.nickname !== undefined) row.nickname = change.nickname;
    if (change.avatar !== undefined) row.avatar = change.avatar;
    if (change.phone !== undefined) row.phone = change.phone;
    if (change.email !== undefined) {
      const same = change.email !== null && row.email !== null && foldEmail(change.email) === foldEmail(row.email);
      row.emailVerified = same && row.emailVerified;
      row.email = change.email === null ? null : change.email.trim();
    }
    return { ok: true, user: this.view(row) };
  }

  async deleteUser(userId: string): Promise<DirectoryUser | null> {
    const row = this.rows.get(userId);
    if (!row) return null;
    this.rows.delete(userId);
    return this.view(row);
  }

  async rolePermissions(roleKeys: readonly string[]): Promise<RoleGrant> {
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `No such role: ${unknown.join(', ')}` };
    return {
      ok: true,
      permissions: effectivePermissions(
        roleKeys,
        roleKeys.flatMap((k) => this.roles.get(k)?.permissions ?? []),
      ),
    };
  }

  async assignedRoles(userId: string): Promise<readonly string[] | null> {
    const row = this.rows.get(userId);
    return row === undefined ? null : [...new Set(row.roles)].sort();
  }

  async setRoles(userId: string, roleKeys: readonly string[]): Promise<AdministrationResult> {
    const row = this.rows.get(userId);
    if (!row) return { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` };
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `No such role: ${unknown.join(', ')}` };
    row.roles = [...new Set(roleKeys)];
    return { ok: true, user: this.view(row) };
  }

  async setPassword(userId: string, change: PasswordChange): Promise<DirectoryUser | null> {
    const row = this.rows.get(userId);
    if (!row || (change.expectedHash !== undefined && row.passwordHash !== change.expectedHash)) return null;
    row.history = [row.passwordHash, ...row.history].slice(0, Math.max(0, change.keepHistory));
    row.passwordHash = change.passwordHash;
    row.mustChangePassword = change.mustChange;
    return this.view(row);
  }

  async passwordHistory(userId: string, limit: number): Promise<readonly string[]> {
    return limit > 0 ? (this.rows.get(userId)?.history.slice(0, limit) ?? []) : [];
  }

  async setStatus(userId: string, status: AccountStatus): Promise<DirectoryUser | null> {
    const row = this.rows.get(userId);
    if (!row) return null;
    row.enabled = status.enabled;
    row.disabledReason = status.enabled ? null : status.reason;
    row.disabledUntil = status.enabled ? null : status.until;
    return this.view(row);
  }

  async findByEmail(email: string): Promise<DirectoryUser | null> {
    const row = this.rowByEmail(email);
    return row ? this.view(row) : null;
  }

  async setEmail(userId: string, email: string, verified: boolean): Promise<SetEmailResult> {
    const row = this.rows.get(userId);
    if (!row) return { ok: false, reason: 'user-not-found' };
    const holder = this.rowByEmail(email);
    if (holder !== undefined && holder !== row) return { ok: false, reason: 'email-taken' };
    row.email = email.trim();
    row.emailVerified = verified;
    return { ok: true, user: this.view(row) };
  }

  async markEmailVerified(userId: string, email: string): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.email === null || foldEmail(row.email) !== foldEmail(email)) return false;
    row.emailVerified = true;
    return true;
  }
}

/** Fills a MemoryUserDirectory with users (created in order, then disabled where asked). */
export async function memoryDirectoryWith(
  roles: readonly MemoryRole[],
  users: readonly {
    username: string;
    nickname: string;
    avatar?: string;
    passwordHash: string;
    enabled: boolean;
    roles: readonly string[];
    email?: string;
  }[],
): Promise<MemoryUserDirectory> {
  const dir = new MemoryUserDirectory(roles);
  for (const u of users) {
    const r = await dir.create(u);
    if (!r.ok) throw new Error(`fixture: ${r.detail}`);
    if (!u.enabled) await dir.setStatus(r.user.id, { enabled: false, reason: null, until: null });
  }
  return dir;
}
