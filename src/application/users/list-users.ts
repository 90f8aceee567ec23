import { inject, injectable } from 'inversify';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { userViewOf, type UserView } from './user-view';
import type { Reason } from '../../domain/errors';

export interface UserPage {
  readonly total: number;
  readonly page: number;
  readonly pageSize: number;
  readonly list: UserView[];
}

/** One page of the accounts of the app's login type. */
@injectable()
export class ListUsers {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['directory-unavailable'];

  constructor(@inject(TOKENS.UserDirectory) private readonly directory: UserDirectory) {}

  async execute(input: { page: number; pageSize: number }): Promise<UserPage> {
    const { total, users } = await this.directory.list((input.page - 1) * input.pageSize, input.pageSize);
    return { total, page: input.page, pageSize: input.pageSize, list: users.map(userViewOf) };
  }
}
