import { injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { hasRoles, type MatchMode } from '../../domain/permission';

export interface CheckRoleInput {
  /** The caller's roles (the session's snapshot). */
  readonly granted: readonly string[];
  readonly required: readonly string[];
  readonly mode: MatchMode;
}

/** Whether the caller has the roles an operation needs; 403 role-denied if not. No store call. */
@injectable()
export class CheckRole {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['role-denied'];

  execute(input: CheckRoleInput): void {
    if (!hasRoles(input.granted, input.required, input.mode)) {
      throw new DomainError('role-denied', `Missing role: ${input.required.join(input.mode === 'AND' ? ' and ' : ' or ')}.`);
    }
  }
}
