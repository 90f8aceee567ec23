/** Removes a role nobody holds (`DELETE /system/role/{id}`; 409 `role-in-use` while a user does), with its menu links. */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Role, RoleAdministration } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { ACCESS_DELEGATION_REASONS, managedRole } from './access-delegation';
import { roleError } from './role-errors';

@injectable()
export class DeleteRole {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...ACCESS_DELEGATION_REASONS,
    'role-in-use',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(@inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration) {}

  async execute(input: { readonly actor: Actor; readonly id: string }): Promise<Role> {
    await managedRole(this.roles, input.actor, input.id, 'delete this role');
    const r = await this.roles.removeRole(input.id);
    if (!r.ok) throw roleError(r);
    return r.role;
  }
}
