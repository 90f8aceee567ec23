/**
 * An administrator unlocks an account locked by failed logins (RuoYi's
 * `/monitor/logininfor/unlock/{userName}`): its shared failure budget and the budget of every
 * device cookie that failed on it are cleared, so the owner logs in at once.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import { AccountLock } from '../auth/account-lock';
import { Delegation, type Actor } from './delegation';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

@injectable()
export class UnlockUser {
  static readonly reasons: readonly Reason[] = [...Delegation.reasons, 'store-unavailable'];

  constructor(
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(AccountLock) private readonly lock: AccountLock,
  ) {}

  async execute(input: { readonly actor: Actor; readonly userId: string }): Promise<{ userId: string; username: string }> {
    const target = await this.delegation.assertMayManage(input.actor, input.userId, 'unlock');
    await this.lock.unlock(ADMIN_LOGIN_TYPE, target.username);
    return { userId: target.id, username: target.username };
  }
}
