/**
 * Replaces a role's menus (`PUT /system/role/{id}/menus`): the caller must hold what the role grants now and what it
 * will grant (delegation), and the live sessions of every user of the role get the new permissions at once, so the
 * next permission check and the next `GET /auth/routes` of those users follow without a new login.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { permissionsOfMenus } from '../../domain/menu';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import type { Role, RoleAdministration } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { ACCESS_DELEGATION_REASONS, assertCovers, managedRole } from './access-delegation';
import { ResyncHolders, type HoldersSync } from './resync-holders';
import { roleError } from './role-errors';

@injectable()
export class SetRoleMenus {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...ACCESS_DELEGATION_REASONS,
    ...ResyncHolders.reasons,
    'validation-failed',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration,
    @inject(TOKENS.MenuCatalogue) private readonly menus: MenuCatalogue,
    @inject(ResyncHolders) private readonly resync: ResyncHolders,
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly id: string;
    readonly menuIds: readonly string[];
  }): Promise<{ role: Role } & HoldersSync> {
    await managedRole(this.roles, input.actor, input.id, 'change this role');
    assertCovers(input.actor, permissionsOfMenus(await this.menus.menus(), input.menuIds), 'give this role these menus');
    const r = await this.roles.setRoleMenus(input.id, input.menuIds);
    if (!r.ok) throw roleError(r);
    return { role: r.role, ...(await this.resync.execute({ userIds: await this.roles.usersOfRole(input.id) })) };
  }
}
