/** One page of roles, filtered by part of the key or name and by status (`GET /system/role`). */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { Role, RoleAdministration, RoleFilter } from '../ports/role-administration';
import { TOKENS } from '../tokens';

export interface RolePage {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly list: readonly Role[];
}

@injectable()
export class ListRoles {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration) {}

  async execute(input: RoleFilter & { readonly page: number; readonly pageSize: number }): Promise<RolePage> {
    const { page, pageSize, ...filter } = input;
    const { total, roles } = await this.roles.listRoles(filter, (page - 1) * pageSize, pageSize);
    return { total, page, pageSize, list: roles };
  }
}
