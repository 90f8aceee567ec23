/**
 * Menus as data (RuoYi's sys_menu): a tree of directories (`M`), pages (`C`) and buttons (`F`). A page is a route of
 * the admin SPA; a button is an action on its page, and its permission string is what a role's menus grant. Pure
 * rules here: what a tree is (no cycle, buttons are leaves), and the vue-router routes a caller holding some
 * permissions may see (vue-pure-admin's `getAsyncRoutes` shape).
 */
import { hasPermission } from './permission';
import { splitPermissionColumn } from './role-permissions';

/** `M` directory, `C` page (a route with a component), `F` button (a permission on its page): RuoYi's menu_type. */
export type MenuType = 'M' | 'C' | 'F';

export interface Menu {
  readonly id: string;
  /** null: a top-level menu. */
  readonly parentId: string | null;
  readonly type: MenuType;
  /** What the SPA shows (sys_menu.name, RuoYi's menu_name). */
  readonly title: string;
  /** The vue-router route name (sys_menu.route_name); '' derives one from the path. */
  readonly name: string;
  /** The route path ('' for buttons). */
  readonly path: string;
  /** The page's view under the SPA's views (`system/user/index`); null for directories and buttons. */
  readonly component: string | null;
  readonly icon: string;
  /** Order among siblings, ascending (vue-pure-admin's `rank`). */
  readonly orderNum: number;
  /** false: routed but not shown in the menu (vue-pure-admin's `showLink`). */
  readonly visible: boolean;
  /** The SPA keeps the page alive between visits (vue-pure-admin's `keepAlive`). */
  readonly keepAlive: boolean;
  /** Permission string(s), comma-separated like RuoYi's perms; null: none. */
  readonly permission: string | null;
  /** A disabled menu grants nothing and routes nowhere (sys_menu.status). */
  readonly enabled: boolean;
}

/** A menu without its id: what a write sends. */
export type MenuFields = Omit<Menu, 'id'>;

/** Siblings in display order: order number, then id (numeric ids numerically). */
export function compareMenus(a: Menu, b: Menu): number {
  return a.orderNum - b.orderNum || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The children of each parent id ('' for the top level), each list in display order. */
export function childrenByParent(menus: readonly Menu[]): Map<string, Menu[]> {
  const out = new Map<string, Menu[]>();
  for (const m of menus) {
    const key = m.parentId ?? '';
    const list = out.get(key);
    if (list === undefined) out.set(key, [m]);
    else list.push(m);
  }
  for (const list of out.values()) list.sort(compareMenus);
  return out;
}

/**
 * The most levels a menu tree may have (a top-level menu is on level 1): `GET /auth/routes` routes no deeper, and
 * the whole tree of `GET /system/menu` is built and written recursively, so a chain thousands deep would overflow.
 */
export const MAX_MENU_DEPTH = 64;

type TreeNode = Pick<Menu, 'id' | 'parentId' | 'type'>;

/** The level of `start` (1 at the top), walking up through `byId`; a stored cycle stops the walk. */
function levelOf(byId: ReadonlyMap<string, TreeNode>, start: TreeNode): number {
  const seen = new Set<string>();
  let level = 0;
  for (
    let at: TreeNode | undefined = start;
    at !== undefined && !seen.has(at.id);
    at = at.parentId === null ? undefined : byId.get(at.parentId)
  ) {
    seen.add(at.id);
    level++;
  }
  return level;
}

/** How many levels the branch of `id` spans (1: no children), breadth first; a stored cycle is walked once. */
function branchHeight(menus: readonly TreeNode[], id: string): number {
  const kids = new Map<string, string[]>();
  for (const m of menus) if (m.parentId !== null) kids.set(m.parentId, [...(kids.get(m.parentId) ?? []), m.id]);
  const seen = new Set([id]);
  let level = [id];
  let height = 0;
  while (level.length > 0) {
    height++;
    level = level.flatMap((k) => kids.get(k) ?? []).filter((k) => !seen.has(k) && seen.add(k));
  }
  return height;
}

/**
 * What is wrong with menu `id` (null: a new menu) becoming `fields` among `menus`: an unknown parent, a button as
 * parent or a button with children (buttons are leaves), a cycle (the parent is the menu itself or below it), or a
 * tree deeper than MAX_MENU_DEPTH levels. `menus` must hold the parent and every menu above it (and, for `id`, the
 * menus below it).
 */
export function treeProblem(menus: readonly TreeNode[], id: string | null, fields: Pick<Menu, 'parentId' | 'type'>): string | null {
  if (id !== null && fields.type === 'F' && menus.some((m) => m.parentId === id)) return `menu ${id} has children: a button cannot`;
  const parentId = fields.parentId;
  if (parentId === null) return null;
  const byId = new Map(menus.map((m) => [m.id, m]));
  const parent = byId.get(parentId);
  if (parent === undefined) return `no menu with id "${parentId}" to be the parent`;
  if (parent.type === 'F') return `menu ${parentId} is a button: a button has no children`;
  const seen = new Set<string>();
  for (let at: TreeNode | undefined = parent; at !== undefined; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
    if (at.id === id) return `menu ${parentId} is menu ${id} or below it: the tree would have a cycle`;
    if (seen.has(at.id)) break; // a cycle already stored (written around the service): not ours to walk forever
    seen.add(at.id);
  }
  const depth = levelOf(byId, parent) + (id === null ? 1 : branchHeight(menus, id));
  if (depth > MAX_MENU_DEPTH) return `below menu ${parentId} the tree would be ${depth} levels deep; at most ${MAX_MENU_DEPTH}`;
  return null;
}

/** The permission strings the menus with these ids grant, disabled ones included (what a role could hand out). */
export function permissionsOfMenus(menus: readonly Menu[], ids: Iterable<string>): string[] {
  const wanted = new Set(ids);
  const out = new Set<string>();
  for (const m of menus) if (wanted.has(m.id)) for (const p of splitPermissionColumn(m.permission)) out.add(p);
  return [...out].sort();
}

/** `/system/user` -> `SystemUser`: the route name of a menu that names none. */
export function routeNameOf(menu: Pick<Menu, 'name' | 'path' | 'id'>): string {
  if (menu.name !== '') return menu.name;
  const words = menu.path.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return words.length === 0 ? `Menu${menu.id}` : words.map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
}

/**
 * The directory or page other than `id` (null: a new menu) whose route name `fields` would take, or null: vue-router
 * keeps one route per name (`addRoute` with a taken name replaces the route), so two menus sharing one would lose a
 * page in the SPA. Names are compared as given or derived from the path (routeNameOf); buttons route nowhere.
 */
export function routeNameTaken(menus: readonly Menu[], id: string | null, fields: Pick<Menu, 'type' | 'name' | 'path'>): Menu | null {
  if (fields.type === 'F') return null;
  const name = routeNameOf({ ...fields, id: id ?? '' });
  if (id === null && name === 'Menu') return null; // derived from a new id: nobody has it yet
  return menus.find((m) => m.id !== id && m.type !== 'F' && routeNameOf(m) === name) ?? null;
}

/** A held permission covers one of the menu's (a menu with none is open to every logged-in user). */
export function mayOpen(menu: Pick<Menu, 'permission'>, held: readonly string[]): boolean {
  const needed = splitPermissionColumn(menu.permission);
  return needed.length === 0 || needed.some((p) => hasPermission(held, p));
}

/** A menu with the menus below it. */
export type MenuNode = Menu & { readonly children: readonly MenuNode[] };

/** The whole tree, every menu (disabled ones too), siblings in display order; menus whose parent is missing are roots. */
export function menuTree(menus: readonly Menu[]): MenuNode[] {
  const ids = new Set(menus.map((m) => m.id));
  const rooted = menus.map((m) => (m.parentId !== null && !ids.has(m.parentId) ? { ...m, parentId: null } : m));
  const children = childrenByParent(rooted);
  const seen = new Set<string>();
  const build = (key: string): MenuNode[] =>
    (children.get(key) ?? []).filter((m) => !seen.has(m.id) && seen.add(m.id)).map((m) => ({ ...m, children: build(m.id) }));
  return build('');
}
