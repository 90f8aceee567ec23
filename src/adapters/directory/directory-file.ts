/**
 * The embedded directory's YAML file: its schema and how it is read (InMemoryUserDirectory loads
 * it; the CLI's YamlFileUserDirectory rewrites it).
 *
 * File shape:
 *   roles:  { <role>: [<permission>, ...] | { id?, name?, enabled?, order?, remark?, menus?: [<menu id>, ...], permissions?: [...] } }
 *           (a role's permissions are those of its menus, in the menus.yml beside the file, and any it lists outright:
 *           ./embedded-access.ts)
 *   users:  [{ id, username, nickname?, avatar?, password: <BCrypt hash>, enabled?, roles: [..], permissions?: [..],
 *              email?, emailVerified?, phone? }]
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { isBcryptHash } from '../../domain/password';

const roleSchema = z.union([
  z.array(z.string()),
  z
    .object({
      id: z.union([z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9][0-9]{0,15}$/)]).optional(),
      name: z.string().trim().min(1).max(64).optional(),
      enabled: z.boolean().default(true),
      order: z.number().int().default(0),
      remark: z.string().max(255).default(''),
      menus: z.array(z.number().int().min(1)).default([]),
      permissions: z.array(z.string()).default([]),
    })
    .strict(),
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
            /** The account's e-mail address (unique whatever its case); unverified unless `emailVerified`. */
            email: z.string().trim().min(1).max(254).optional(),
            emailVerified: z.boolean().default(false),
            /** A phone number as given. */
            phone: z.string().trim().min(1).max(32).optional(),
          })
          .strict()
          .refine((u) => !u.emailVerified || u.email !== undefined, { message: 'emailVerified needs an email', path: ['emailVerified'] }),
      )
      .default([]),
  })
  .strict();

type ParsedUser = z.infer<typeof fileSchema>['users'][number];

/** The parsed file, the input of `new InMemoryUserDirectory(...)` (`emailVerified` may be left out: false). */
export interface DirectoryFile {
  /** A role as the file may write it (what is left out takes its default: ./embedded-access.ts). */
  readonly roles: Readonly<Record<string, z.input<typeof roleSchema>>>;
  readonly users: readonly (Omit<ParsedUser, 'emailVerified'> & { readonly emailVerified?: boolean })[];
}

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

/** Numeric ids in numeric order (then any others by code unit): no Intl collator on this path. */
export function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
