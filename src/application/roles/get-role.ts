/** One role with its menus and what it grants (`GET /system/role/{id}`). */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Role, RoleAdministration } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import { roleNotFound } from './role-errors';

@injectable()
export class GetRole {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['role-not-found', 'directory-unavailable'];

  constructor(@inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration) {}

  async execute(input: { readonly id: string }): Promise<Role> {
    const role = await this.roles.findRole(input.id);
    if (role === null) throw roleNotFound(input.id);
    return role;
  }
}
