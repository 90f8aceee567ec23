/**
 * Adds a role with its menus (`POST /system/role`). Nobody holds it yet, but whoever is given it later gets what its
 * menus grant, so the caller must hold all of it (the delegation rule; a role keyed `admin` grants `*:*:*`).
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { permissionsOfMenus } from '../../domain/menu';
import { ALL_PERMISSIONS } from '../../domain/permission';
import { SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import type { Role, RoleAdministration, RoleFields } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { ACCESS_DELEGATION_REASONS, assertCovers } from './access-delegation';
import { roleError } from './role-errors';

@injectable()
export class CreateRole {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...ACCESS_DELEGATION_REASONS,
    'role-key-taken',
    'validation-failed',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration,
    @inject(TOKENS.MenuCatalogue) private readonly menus: MenuCatalogue,
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly key: string;
    readonly fields: RoleFields;
    readonly menuIds: readonly string[];
  }): Promise<Role> {
    const granted = input.key === SUPER_ADMIN_ROLE ? [ALL_PERMISSIONS] : permissionsOfMenus(await this.menus.menus(), input.menuIds);
    assertCovers(input.actor, granted, 'create this role');
    const r = await this.roles.createRole(input.key, input.fields, input.menuIds);
    if (!r.ok) throw roleError(r);
    return r.role;
  }
}
