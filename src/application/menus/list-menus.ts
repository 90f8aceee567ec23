/** The whole menu tree, disabled menus included (`GET /system/menu`), read from the catalogue (not the routes' cache). */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { menuTree, type MenuNode } from '../../domain/menu';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { TOKENS } from '../tokens';

@injectable()
export class ListMenus {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue) {}

  async execute(): Promise<MenuNode[]> {
    return menuTree(await this.catalogue.menus());
  }
}
