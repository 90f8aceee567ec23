/**
 * Adds a menu (`POST /system/menu`). It grants nothing until a role holds it; the SPA's routes see it at once. Its route
 * name may not be another directory's or page's (400 at /name).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Menu, MenuFields } from '../../domain/menu';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { TOKENS } from '../tokens';
import { menuError, routeNameError } from './menu-errors';
import { MenuTreeCache } from './menu-tree-cache';

@injectable()
export class CreateMenu {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['validation-failed', 'directory-read-only', 'directory-unavailable'];

  constructor(
    @inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue,
    @inject(MenuTreeCache) private readonly tree: MenuTreeCache,
  ) {}

  async execute(input: { readonly fields: MenuFields }): Promise<Menu> {
    const clash = routeNameError(await this.catalogue.menus(), null, input.fields);
    if (clash !== null) throw clash;
    const r = await this.catalogue.createMenu(input.fields);
    if (!r.ok) throw menuError(r);
    this.tree.invalidate();
    return r.menu;
  }
}
