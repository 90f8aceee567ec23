/**
 * One page of the admin accounts matching a filter (username part, status, role), in id order, and
 * how many match in all: `GET /system/user`.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { UserAdministration, UserQuery } from '../ports/user-administration';
import { TOKENS } from '../tokens';
import type { UserPage } from './list-users';
import { userViewOf } from './user-view';

export interface FindUsersInput extends Omit<UserQuery, 'offset' | 'limit'> {
  readonly page: number;
  readonly pageSize: number;
}

@injectable()
export class FindUsers {
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(TOKENS.UserAdministration) private readonly administration: UserAdministration) {}

  async execute(input: FindUsersInput): Promise<UserPage> {
    const { page, pageSize, ...filter } = input;
    const { total, users } = await this.administration.findUsers({ ...filter, offset: (page - 1) * pageSize, limit: pageSize });
    return { total, page, pageSize, list: users.map(userViewOf) };
  }
}
