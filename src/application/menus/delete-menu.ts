/**
 * Removes a menu (`DELETE /system/menu/{id}`): refused while menus are below it or a role holds it (RuoYi's rule), so
 * a removal never changes anyone's permissions.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { TOKENS } from '../tokens';
import { menuError } from './menu-errors';
import { MenuTreeCache } from './menu-tree-cache';

@injectable()
export class DeleteMenu {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    'menu-not-found',
    'menu-has-children',
    'menu-in-use',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue,
    @inject(MenuTreeCache) private readonly tree: MenuTreeCache,
  ) {}

  async execute(input: { readonly id: string }): Promise<void> {
    const r = await this.catalogue.removeMenu(input.id);
    if (!r.ok) throw menuError(r);
    this.tree.invalidate();
  }
}
