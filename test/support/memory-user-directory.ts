/**
 * A small in-memory UserDirectory + UserAdministration for tests: the reference the contract is
 * written against, and a stand-in wherever a test needs a directory without a database.
 */
import { effectivePermissions } from '../../src/domain/role-permissions';
import { foldUsername } from '../../src/domain/username';
import type { AdministrationResult, RoleGrant, UserAdministration } from '../../src/application/ports/user-administration';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../src/application/ports/user-directory';

export interface MemoryRole {
  readonly key: string;
  readonly enabled: boolean;
  readonly permissions: readonly string[];
}

interface Row {
  readonly id: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly passwordHash: string;
  enabled: boolean;
  roles: string[];
}

export class MemoryUserDirectory implements UserDirectory, UserAdministration {
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
    };
  }

  private unknownRoles(keys: readonly string[]): string[] {
    return [...new Set(keys)].filter((k) => !this.roles.has(k));
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
    const row: Row = {
      id: String(this.nextId++),
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar ?? '',
      passwordHash: user.passwordHash,
      enabled: true,
      roles: [...new Set(user.roles)],
    };
    this.rows.set(row.id, row);
    return { ok: true, user: this.view(row) };
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    const all = [...this.rows.values()].sort((a, b) => Number(a.id) - Number(b.id));
    return { total: all.length, users: all.slice(offset, offset + limit).map((r) => this.view(r)) };
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

  async setEnabled(userId: string, enabled: boolean): Promise<AdministrationResult> {
    const row = this.rows.get(userId);
    if (!row) return { ok: false, reason: 'user-not-found', detail: `No user with id "${userId}".` };
    row.enabled = enabled;
    return { ok: true, user: this.view(row) };
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
  }[],
): Promise<MemoryUserDirectory> {
  const dir = new MemoryUserDirectory(roles);
  for (const u of users) {
    const r = await dir.create(u);
    if (!r.ok) throw new Error(`fixture: ${r.detail}`);
    if (!u.enabled) await dir.setEnabled(r.user.id, false);
  }
  return dir;
}
