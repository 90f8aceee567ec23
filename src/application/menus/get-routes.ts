/** The admin SPA's routes for the caller (`GET /auth/routes`): the menu tree filtered by the session's permissions. */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { MenuTreeCache, type RoutesAnswer } from './menu-tree-cache';

@injectable()
export class GetRoutes {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(MenuTreeCache) private readonly tree: MenuTreeCache) {}

  execute(input: { readonly permissions: readonly string[] }): Promise<RoutesAnswer> {
    return this.tree.routesFor(input.permissions);
  }
}
