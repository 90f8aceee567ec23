/**
 * The embedded UserDirectory: accounts read from a YAML file at start-up (config/users.yml in
 * dev and test). Users created through the API are kept in memory only and are gone after a
 * restart; the file is never written (it may be read-only, and a process rewriting its own
 * configuration is a surprise). The SQL directory (svc.directory=sql) is the durable option.
 *
 * File shape:
 *   roles:  { <role>: [<permission>, ...] | { enabled: bool, permissions: [...] } }
 *   users:  [{ id, username, nickname?, avatar?, password: <BCrypt hash>, enabled?, roles: [..], permissions?: [..] }]
 *
 * Usernames are unique by their folded form (NFKC, then lower case): lookups fold, a file listing
 * two names that differ only in case is refused (which account would `ADMIN` log in as?), and the
 * stored spelling is what every answer shows.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { AdministrationResult, RoleGrant, UserAdministration } from '../../application/ports/user-administration';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';
import { ALL_PERMISSIONS } from '../../domain/permission';
import { SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import { isBcryptHash } from '../../domain/password';
import { foldUsername } from '../../domain/username';

const roleSchema = z.union([
  z.array(z.string()),
  z.object({ enabled: z.boolean().default(true), permissions: z.array(z.string()).default([]) }).strict(),
]);

const fileSchema = z
  .object({
    roles: z.record(z.string(), roleSchema).default({}),
    users: z
      .array(
        z
          .object({
            id: z.union([z.string(), z.number()]).transform(String),
            username: z.string().min(1),
            nickname: z.string().optional(),
            avatar: z.string().optional(),
            password: z.string().refine(isBcryptHash, 'must be a BCrypt hash ($2a$/$2b$/$2y$), never plaintext'),
            enabled: z.boolean().default(true),
            roles: z.array(z.string()).default([]),
            permissions: z.array(z.string()).default([]),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

export type DirectoryFile = z.infer<typeof fileSchema>;

export function readDirectoryFile(file: string): DirectoryFile {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    throw new Error(`${file}: cannot be read (${(e as Error).message.split('\n')[0]})`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface RoleDef {
  readonly enabled: boolean;
  readonly permissions: readonly string[];
}

/** What the directory keeps per account; the DirectoryUser view is derived from it and the roles. */
interface Account extends Omit<DirectoryUser, 'permissions'> {
  /** Permissions granted to the user directly (`roles`: assigned role keys; a disabled role stays assigned but grants nothing). */
  readonly extra: readonly string[];
}

/**
 * Same rules as the SQL directory (src/domain/role-permissions.ts): a user's roles are their
 * enabled roles; permissions are the distinct permissions of those roles (plus direct grants);
 * the role `admin` holds `*:*:*`. Synchronous inside, so every change is atomic on the event loop.
 */
export class InMemoryUserDirectory implements UserDirectory, UserAdministration {
  /** Keyed by the folded name (src/domain/username.ts): one account per name, whatever its case. */
  private readonly byName = new Map<string, Account>();
  private readonly byId = new Map<string, Account>();
  private readonly roles: ReadonlyMap<string, RoleDef>;

  constructor(data: DirectoryFile = { roles: {}, users: [] }) {
    this.roles = new Map(
      Object.entries(data.roles).map(([k, v]) => [k, Array.isArray(v) ? { enabled: true, permissions: v } : v] as [string, RoleDef]),
    );
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
      this.put({
        id: u.id,
        username: u.username,
        nickname: u.nickname ?? u.username,
        avatar: u.avatar ?? '',
        passwordHash: u.password,
        enabled: u.enabled,
        roles: u.roles,
        extra: u.permissions,
      });
    }
  }

  /** Errors name the file: a file the directory cannot load unambiguously stops the start. */
  static fromFile(file: string): InMemoryUserDirectory {
    const data = readDirectoryFile(file);
    try {
      return new InMemoryUserDirectory(data);
    } catch (e) {
      throw new Error(`${file}: ${(e as Error).message}`);
    }
  }

  private view(a: Account): DirectoryUser {
    const roles = [...new Set(a.roles)].filter((r) => this.roles.get(r)?.enabled === true);
    const permissions = this.grantOf(roles, a.extra);
    return {
      id: a.id,
      username: a.username,
      nickname: a.nickname,
      avatar: a.avatar,
      passwordHash: a.passwordHash,
      enabled: a.enabled,
      roles,
      permissions,
    };
  }

  /**
   * What these roles (and direct grants) hold: the file's order is kept (deduplicated, blanks dropped); the role
   * `admin` holds everything (RuoYi rule). The view passes the enabled roles, rolePermissions every one asked about.
   */
  private grantOf(roleKeys: readonly string[], extra: readonly string[] = []): string[] {
    if (roleKeys.includes(SUPER_ADMIN_ROLE)) return [ALL_PERMISSIONS];
    return [...new Set([...roleKeys.flatMap((r) => this.roles.get(r)?.permissions ?? []), ...extra])].filter((p) => p.trim() !== '');
  }

  private put(a: Account): void {
    this.byName.set(foldUsername(a.username), a);
    this.byId.set(a.id, a);
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
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `unknown role(s): ${unknown.join(', ')}` };
    if (this.byName.has(foldUsername(user.username))) return { ok: false, reason: 'username-taken', detail: 'taken' };
    const nextId = Math.max(0, ...[...this.byId.keys()].map((k) => (/^\d+$/.test(k) ? Number(k) : 0))) + 1;
    const created: Account = {
      id: String(nextId),
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar ?? '',
      passwordHash: user.passwordHash,
      enabled: true,
      roles: [...new Set(user.roles)],
      extra: [],
    };
    this.put(created);
    return { ok: true, user: this.view(created) };
  }

  async rolePermissions(roleKeys: readonly string[]): Promise<RoleGrant> {
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `unknown role(s): ${unknown.join(', ')}` };
    return { ok: true, permissions: this.grantOf(roleKeys) };
  }

  async assignedRoles(userId: string): Promise<readonly string[] | null> {
    const a = this.byId.get(userId);
    return a === undefined ? null : [...new Set(a.roles)];
  }

  /** UserAdministration: changes live in memory (the file is never rewritten). */
  async setRoles(userId: string, roleKeys: readonly string[]): Promise<AdministrationResult> {
    const a = this.byId.get(userId);
    if (!a) return { ok: false, reason: 'user-not-found', detail: `no user with id ${userId}` };
    const unknown = this.unknownRoles(roleKeys);
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `unknown role(s): ${unknown.join(', ')}` };
    const updated: Account = { ...a, roles: [...new Set(roleKeys)] };
    this.put(updated);
    return { ok: true, user: this.view(updated) };
  }

  async setEnabled(userId: string, enabled: boolean): Promise<AdministrationResult> {
    const a = this.byId.get(userId);
    if (!a) return { ok: false, reason: 'user-not-found', detail: `no user with id ${userId}` };
    const updated: Account = { ...a, enabled };
    this.put(updated);
    return { ok: true, user: this.view(updated) };
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    // Numeric ids in numeric order (then any others by code unit): no Intl collator on this path.
    const all = [...this.byId.values()].sort((a, b) => compareIds(a.id, b.id));
    return { total: all.length, users: all.slice(offset, offset + limit).map((a) => this.view(a)) };
  }
}
