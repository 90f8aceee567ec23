/**
 * A session's pending required action is done (a factor was enrolled, ...): the same session
 * becomes a full one, without a new login. Reads nothing: the caller has the record in hand.
 */
import { inject, injectable } from 'inversify';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { RequiredAction, SessionRecord } from '../../domain/session';
import { SessionManagers } from '../session/session-manager';

@injectable()
export class LiftRequiredAction {
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(@inject(SessionManagers) private readonly managers: SessionManagers) {}

  async execute(input: {
    readonly loginType: LoginType;
    readonly tokenHash: string;
    readonly record: SessionRecord;
    readonly action: RequiredAction;
  }): Promise<void> {
    const pending = input.record.requiredActions ?? [];
    if (!pending.includes(input.action)) return;
    const left = pending.filter((a) => a !== input.action);
    const { requiredActions: _old, ...rest } = input.record;
    await this.managers.get(input.loginType).replaceRecord(input.tokenHash, left.length > 0 ? { ...rest, requiredActions: left } : rest);
  }
}
