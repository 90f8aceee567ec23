/**
 * The embedded directory's menu catalogue file, `menus.yml` beside svc.users-file (dev/test: config/menus.yml): the
 * menu tree, written nested (a menu's `children` are below it), read once at start-up. Its shape:
 *
 *   menus:
 *     - { id, type: M|C|F, title, path?, name?, component?, icon?, order?, visible?, keepAlive?, permission?,
 *         enabled?, children?: [...] }
 *
 * Ids are unique positive integers (roles in the users file name menus by id); a button (`F`) has no children.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Menu } from '../../domain/menu';

interface MenuEntry {
  readonly id: number;
  readonly type: 'M' | 'C' | 'F';
  readonly title: string;
  readonly path: string;
  readonly name: string;
  readonly component: string | null;
  readonly icon: string;
  readonly order: number;
  readonly visible: boolean;
  readonly keepAlive: boolean;
  readonly permission: string | null;
  readonly enabled: boolean;
  readonly children: readonly MenuEntry[];
}

const entrySchema: z.ZodType<MenuEntry, z.ZodTypeDef, unknown> = z.lazy(() =>
  z
    .object({
      id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
      type: z.enum(['M', 'C', 'F']),
      title: z.string().trim().min(1).max(64),
      path: z.string().max(255).default(''),
      name: z.string().max(64).default(''),
      component: z.string().min(1).max(255).nullable().default(null),
      icon: z.string().max(100).default(''),
      order: z.number().int().default(0),
      visible: z.boolean().default(true),
      keepAlive: z.boolean().default(false),
      permission: z.string().max(255).nullable().default(null),
      enabled: z.boolean().default(true),
      children: z.array(entrySchema).default([]),
    })
    .strict(),
);

const fileSchema = z.object({ menus: z.array(entrySchema).default([]) }).strict();

/** The menus of a parsed file, flat, each with its parent's id; a repeated id or a button with children is an error. */
export function menusOf(entries: readonly MenuEntry[]): Menu[] {
  const out: Menu[] = [];
  const seen = new Set<number>();
  const walk = (list: readonly MenuEntry[], parentId: string | null, parentType: string | null): void => {
    for (const e of list) {
      if (seen.has(e.id)) throw new Error(`menu id ${e.id} is listed twice`);
      if (parentType === 'F') throw new Error(`menu ${e.id}: its parent ${parentId} is a button, and a button has no children`);
      seen.add(e.id);
      const { id, order, children, ...rest } = e;
      out.push({ ...rest, id: String(id), parentId, orderNum: order, permission: rest.permission === '' ? null : rest.permission });
      walk(children, String(id), e.type);
    }
  };
  walk(entries, null, null);
  return out;
}

/** The menus of `file`; every problem names the file. */
export function readMenusFile(file: string): Menu[] {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    throw new Error(`${file}: cannot be read (${(e as Error).message.split('\n')[0]})`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  try {
    return menusOf(parsed.data.menus);
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}
