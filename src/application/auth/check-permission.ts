import { injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { hasPermissions, type MatchMode } from '../../domain/permission';

export interface CheckPermissionInput {
  /** The caller's granted permission patterns (the session's snapshot). */
  readonly granted: readonly string[];
  /** `system:user:add`-style permissions the operation needs. */
  readonly required: readonly string[];
  /** AND: all of them; OR: any one. */
  readonly mode: MatchMode;
}

/** Whether the caller holds the permissions an operation needs; 403 permission-denied if not. No store call. */
@injectable()
export class CheckPermission {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['permission-denied'];

  execute(input: CheckPermissionInput): void {
    if (!hasPermissions(input.granted, input.required, input.mode)) {
      throw new DomainError('permission-denied', `Missing permission: ${input.required.join(input.mode === 'AND' ? ' and ' : ' or ')}.`);
    }
  }
}
