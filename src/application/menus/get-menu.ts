/** One menu (`GET /system/menu/{id}`). */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Menu } from '../../domain/menu';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { TOKENS } from '../tokens';
import { menuNotFound } from './menu-errors';

@injectable()
export class GetMenu {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['menu-not-found', 'directory-unavailable'];

  constructor(@inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue) {}

  async execute(input: { readonly id: string }): Promise<Menu> {
    const menu = await this.catalogue.findMenu(input.id);
    if (menu === null) throw menuNotFound(input.id);
    return menu;
  }
}
