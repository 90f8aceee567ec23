/** The menu catalogue's refusals as the domain's errors (what the routes answer). */
import { DomainError } from '../../domain/errors';
import type { MenuRemoval, MenuWrite } from '../ports/menu-catalogue';

type Refusal = Extract<MenuWrite | MenuRemoval, { ok: false }>;

export function menuError(r: Refusal): DomainError {
  switch (r.reason) {
    case 'invalid-tree':
      return new DomainError('validation-failed', r.detail, { errors: [{ pointer: '/parentId', detail: r.detail }] });
    case 'menu-not-found':
    case 'menu-has-children':
    case 'menu-in-use':
      return new DomainError(r.reason, r.detail);
  }
}

export const menuNotFound = (id: string): DomainError => new DomainError('menu-not-found', `No menu with id "${id}".`);
