/** Re-enables a disabled (or banned) admin account: its reason and end are cleared; it logs in again. */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { AccountStore } from '../ports/account-store';
import type { DirectoryUser } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { Delegation, type Actor } from './delegation';

@injectable()
export class EnableUser {
  static readonly reasons: readonly Reason[] = [...Delegation.reasons, 'user-not-found', 'directory-read-only', 'directory-unavailable'];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(Delegation) private readonly delegation: Delegation,
  ) {}

  async execute(input: { readonly actor: Actor; readonly userId: string }): Promise<DirectoryUser> {
    await this.delegation.assertMayManage(input.actor, input.userId, 'enable');
    const user = await this.accounts.setStatus(input.userId, { enabled: true });
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    return user;
  }
}
