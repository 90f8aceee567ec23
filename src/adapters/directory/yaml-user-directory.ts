/**
 * The embedded UserDirectory: accounts read from a YAML file at start-up (config/users.yml in
 * dev and test). Users created through the API are kept in memory only and are gone after a
 * restart; the file is never written (it may be read-only, and a process rewriting its own
 * configuration is a surprise). The SQL adapter of a later step is the durable option.
 *
 * File shape:
 *   roles:  { <role>: [<permission>, ...] }
 *   users:  [{ id, username, nickname?, avatar?, password: <BCrypt hash>, enabled?, roles: [..], permissions?: [..] }]
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { CreateUserResult, DirectoryUser, NewUser, UserDirectory } from '../../application/ports/user-directory';

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

const fileSchema = z
  .object({
    roles: z.record(z.string(), z.array(z.string())).default({}),
    users: z
      .array(
        z
          .object({
            id: z.union([z.string(), z.number()]).transform(String),
            username: z.string().min(1),
            nickname: z.string().optional(),
            avatar: z.string().optional(),
            password: z.string().regex(BCRYPT, 'must be a BCrypt hash ($2a$/$2b$/$2y$), never plaintext'),
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

export class InMemoryUserDirectory implements UserDirectory {
  private readonly byName = new Map<string, DirectoryUser>();
  private readonly byId = new Map<string, DirectoryUser>();
  private readonly roles: ReadonlyMap<string, readonly string[]>;

  constructor(data: DirectoryFile = { roles: {}, users: [] }) {
    this.roles = new Map(Object.entries(data.roles));
    for (const u of data.users) {
      const unknown = u.roles.filter((r) => !this.roles.has(r));
      if (unknown.length > 0) throw new Error(`user "${u.username}": unknown role(s) ${unknown.join(', ')}`);
      if (this.byName.has(u.username) || this.byId.has(u.id)) throw new Error(`user "${u.username}" (id ${u.id}) is listed twice`);
      this.put({
        id: u.id,
        username: u.username,
        nickname: u.nickname ?? u.username,
        avatar: u.avatar ?? '',
        passwordHash: u.password,
        enabled: u.enabled,
        roles: u.roles,
        permissions: this.permissionsOf(u.roles, u.permissions),
      });
    }
  }

  static fromFile(file: string): InMemoryUserDirectory {
    return new InMemoryUserDirectory(readDirectoryFile(file));
  }

  private permissionsOf(roles: readonly string[], extra: readonly string[]): string[] {
    return [...new Set([...roles.flatMap((r) => this.roles.get(r) ?? []), ...extra])];
  }

  private put(u: DirectoryUser): void {
    this.byName.set(u.username, u);
    this.byId.set(u.id, u);
  }

  async findByUsername(username: string): Promise<DirectoryUser | null> {
    return this.byName.get(username) ?? null;
  }

  async findById(id: string): Promise<DirectoryUser | null> {
    return this.byId.get(id) ?? null;
  }

  /** Synchronous inside, so the check and the insert are atomic on the event loop. */
  async create(user: NewUser): Promise<CreateUserResult> {
    const unknown = user.roles.filter((r) => !this.roles.has(r));
    if (unknown.length > 0) return { ok: false, reason: 'unknown-role', detail: `unknown role(s): ${unknown.join(', ')}` };
    if (this.byName.has(user.username)) return { ok: false, reason: 'username-taken', detail: 'taken' };
    const nextId = Math.max(0, ...[...this.byId.keys()].map((k) => (/^\d+$/.test(k) ? Number(k) : 0))) + 1;
    const created: DirectoryUser = {
      id: String(nextId),
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar ?? '',
      passwordHash: user.passwordHash,
      enabled: true,
      roles: [...user.roles],
      permissions: this.permissionsOf(user.roles, []),
    };
    this.put(created);
    return { ok: true, user: created };
  }

  async list(offset: number, limit: number): Promise<{ total: number; users: DirectoryUser[] }> {
    const all = [...this.byId.values()].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
    return { total: all.length, users: all.slice(offset, offset + limit) };
  }
}
