/** Role administration's refusals as the domain's errors (what the routes answer). */
import { DomainError } from '../../domain/errors';
import type { RoleRemoval, RoleWrite } from '../ports/role-administration';

type Refusal = Extract<RoleWrite | RoleRemoval, { ok: false }>;

export function roleError(r: Refusal): DomainError {
  switch (r.reason) {
    case 'unknown-menu':
      return new DomainError('validation-failed', r.detail, { errors: [{ pointer: '/menuIds', detail: r.detail }] });
    case 'role-not-found':
    case 'role-key-taken':
    case 'role-in-use':
      return new DomainError(r.reason, r.detail);
  }
}

export const roleNotFound = (id: string): DomainError => new DomainError('role-not-found', `No role with id "${id}".`);
