/**
 * Replaces a menu (`PUT /system/menu/{id}`). Its permission and status are part of what the roles holding it grant, so
 * the caller must hold the menu's permission before and after (delegation), and the live sessions of every user of
 * those roles get their new permissions at once.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Menu, MenuFields } from '../../domain/menu';
import { splitPermissionColumn } from '../../domain/role-permissions';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import { ACCESS_DELEGATION_REASONS, assertCovers } from '../roles/access-delegation';
import { ResyncHolders, type HoldersSync } from '../roles/resync-holders';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { menuError, menuNotFound, routeNameError } from './menu-errors';
import { MenuTreeCache } from './menu-tree-cache';

@injectable()
export class UpdateMenu {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...ACCESS_DELEGATION_REASONS,
    ...ResyncHolders.reasons,
    'menu-not-found',
    'validation-failed',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.MenuCatalogue) private readonly catalogue: MenuCatalogue,
    @inject(MenuTreeCache) private readonly tree: MenuTreeCache,
    @inject(ResyncHolders) private readonly resync: ResyncHolders,
  ) {}

  async execute(input: { readonly actor: Actor; readonly id: string; readonly fields: MenuFields }): Promise<{ menu: Menu } & HoldersSync> {
    const before = await this.catalogue.findMenu(input.id);
    if (before === null) throw menuNotFound(input.id);
    const granted = [...splitPermissionColumn(before.permission), ...splitPermissionColumn(input.fields.permission)];
    assertCovers(input.actor, granted, 'change this menu');
    const clash = routeNameError(await this.catalogue.menus(), input.id, input.fields);
    if (clash !== null) throw clash;
    const r = await this.catalogue.updateMenu(input.id, input.fields);
    if (!r.ok) throw menuError(r);
    this.tree.invalidate();
    const sync = await this.resync.execute({ userIds: await this.catalogue.usersOfMenu(input.id) });
    return { menu: r.menu, ...sync };
  }
}
