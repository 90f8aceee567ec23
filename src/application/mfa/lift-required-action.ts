/**
 * A session's pending required action is done (a TOTP factor confirmed, a passkey registered, the
 * password changed): the same session becomes a full one, without a new login. The action is taken off the session's
 * record as stored at the write (SessionStore.patch), never off a copy read earlier.
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
    if (!(input.record.requiredActions ?? []).includes(input.action)) return;
    // The session as it is now loses the action; the rest of it (roles changed meanwhile) is not written back.
    await this.managers
      .get(input.loginType)
      .patchRecord(input.tokenHash, (current) => ({ requiredActions: actionsLeft(current, input.action) }));
  }
}

/** The record's pending actions but `action`. */
export function actionsLeft(record: SessionRecord, action: RequiredAction): RequiredAction[] {
  return (record.requiredActions ?? []).filter((a) => a !== action);
}

/** The record without the pending action `action` (without the field when no action is left). */
export function withoutRequiredAction(record: SessionRecord, action: RequiredAction): SessionRecord {
  const left = actionsLeft(record, action);
  const { requiredActions: _done, ...rest } = record;
  return left.length > 0 ? { ...rest, requiredActions: left } : rest;
}
