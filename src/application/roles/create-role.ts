/**
 * Adds a role with its menus (`POST /system/role`). Nobody holds it yet, but whoever is given it later gets what its
 * menus grant, so the caller must hold all of it (the delegation rule; a role keyed `admin` grants `*:*:*`). A key
 * that differs from a taken one only by case is taken too (409 `role-key-taken`).
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { permissionsOfMenus } from '../../domain/menu';
import { ALL_PERMISSIONS } from '../../domain/permission';
import { SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import type { MenuCatalogue } from '../ports/menu-catalogue';
import type { Role, RoleAdministration, RoleFields } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { ACCESS_DELEGATION_REASONS, assertCovers } from './access-delegation';
import { roleError } from './role-errors';

/** Roles read per page while looking for a key that differs only by case (the filter matches any part of the key). */
const PAGE = 500;

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
    const lookAlike = await this.takenInAnyCase(input.key);
    if (lookAlike !== null)
      throw new DomainError('role-key-taken', `The role key "${input.key}" is taken: role "${lookAlike}" differs only by case.`);
    const r = await this.roles.createRole(input.key, input.fields, input.menuIds);
    if (!r.ok) throw roleError(r);
    return r.role;
  }

  /**
   * The key of a role that differs from `key` only by case (`Admin` beside `admin`), or null: like usernames, role keys
   * are unique whatever their case, so no look-alike of a role (the super admin's first) can be added. Two concurrent
   * creations of such keys may both pass; the exact key stays unique in every directory.
   */
  private async takenInAnyCase(key: string): Promise<string | null> {
    const folded = key.toLowerCase();
    for (let offset = 0; ; offset += PAGE) {
      const { total, roles } = await this.roles.listRoles({ key }, offset, PAGE);
      const found = roles.find((r) => r.key.toLowerCase() === folded);
      if (found !== undefined) return found.key;
      if (roles.length === 0 || offset + PAGE >= total) return null;
    }
  }
}
