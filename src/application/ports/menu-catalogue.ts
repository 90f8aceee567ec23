/**
 * The menu catalogue (sys_menu, or the embedded directory's menus.yml): the tree the admin SPA's routes and the
 * roles' permissions come from. "Not found", a bad parent and a refused removal are values; nothing is half-written.
 */
import type { Menu, MenuFields } from '../../domain/menu';

export type { Menu, MenuFields, MenuType } from '../../domain/menu';

export type MenuWrite =
  | { readonly ok: true; readonly menu: Menu }
  | {
      readonly ok: false;
      /** `invalid-tree`: an unknown parent, a button with children, or a cycle (the detail says which). */
      readonly reason: 'menu-not-found' | 'invalid-tree';
      readonly detail: string;
    };

export type MenuRemoval =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'menu-not-found' | 'menu-has-children' | 'menu-in-use'; readonly detail: string };

export interface MenuCatalogue {
  /** Every menu, enabled or not, in no particular order. */
  menus(): Promise<readonly Menu[]>;
  findMenu(id: string): Promise<Menu | null>;
  /** Adds a menu under `parentId` (an existing directory or page, or null for the top level). */
  createMenu(fields: MenuFields): Promise<MenuWrite>;
  /** Replaces every field of the menu; a parent that would make a cycle is `invalid-tree`, checked atomically with the write. */
  updateMenu(id: string, fields: MenuFields): Promise<MenuWrite>;
  /** Removes a menu that has no children and that no role holds (RuoYi's rule: unlink it from its roles first). */
  removeMenu(id: string): Promise<MenuRemoval>;
  /** The ids of the users holding a role that holds the menu (whose permissions a change of the menu changes). */
  usersOfMenu(id: string): Promise<readonly string[]>;
}
