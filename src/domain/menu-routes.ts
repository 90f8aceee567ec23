/**
 * The vue-router routes of the admin SPA that a caller may see (vue-pure-admin's `getAsyncRoutes` shape), from the
 * menu tree and the caller's permissions:
 *
 *  - a disabled menu, and everything below it, is absent;
 *  - a directory or page is present when the caller holds its permission (one of them, for a comma list; a menu
 *    with none is open to every logged-in user), and a directory only when something is left in it;
 *  - a page's `meta.auths` lists the permissions of its enabled buttons that the caller holds;
 *  - `meta.showLink` is the menu's `visible` (a hidden page is routed, not shown), `rank` its order number;
 *  - a directory redirects to its first child.
 */
import { childrenByParent, MAX_MENU_DEPTH, mayOpen, routeNameOf, type Menu } from './menu';
import { hasPermission } from './permission';
import { splitPermissionColumn } from './role-permissions';

export interface RouteMeta {
  readonly title: string;
  readonly icon: string;
  readonly rank: number;
  readonly showLink: boolean;
  readonly keepAlive: boolean;
  readonly auths: readonly string[];
}

export interface AsyncRoute {
  readonly path: string;
  readonly name: string;
  readonly component?: string;
  readonly redirect?: string;
  readonly meta: RouteMeta;
  readonly children: readonly AsyncRoute[];
}

/** The routes of `menus` that a caller holding `held` may see, in display order. */
export function routesFor(menus: readonly Menu[], held: readonly string[]): AsyncRoute[] {
  const children = childrenByParent(menus.filter((m) => m.enabled));
  const build = (parentKey: string, depth: number): AsyncRoute[] => {
    if (depth > MAX_MENU_DEPTH) return []; // deeper than the service writes: a stored cycle, not a tree
    const out: AsyncRoute[] = [];
    for (const m of children.get(parentKey) ?? []) {
      if (m.type === 'F' || !mayOpen(m, held)) continue;
      const below = build(m.id, depth + 1);
      if (m.type === 'M' && below.length === 0) continue;
      const auths = m.type === 'C' ? buttonAuths(children.get(m.id) ?? [], held) : [];
      out.push({
        path: m.path,
        name: routeNameOf(m),
        ...(m.type === 'C' && m.component !== null && m.component !== '' ? { component: m.component } : {}),
        ...(m.type === 'M' && below[0] !== undefined ? { redirect: below[0].path } : {}),
        meta: { title: m.title, icon: m.icon, rank: m.orderNum, showLink: m.visible, keepAlive: m.keepAlive, auths },
        children: below,
      });
    }
    return out;
  };
  return build('', 0);
}

/** The permissions of a page's buttons that the caller holds, in button order, without repeats. */
function buttonAuths(kids: readonly Menu[], held: readonly string[]): string[] {
  const out = new Set<string>();
  for (const b of kids) {
    if (b.type !== 'F') continue;
    for (const p of splitPermissionColumn(b.permission)) if (hasPermission(held, p)) out.add(p);
  }
  return [...out];
}
