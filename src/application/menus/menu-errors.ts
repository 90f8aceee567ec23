/** The menu catalogue's refusals as the domain's errors (what the routes answer). */
import { DomainError } from '../../domain/errors';
import { routeNameOf, routeNameTaken, type Menu, type MenuFields } from '../../domain/menu';
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

/** 400 at /name: the route name `fields` would take is another menu's (routeNameTaken). */
export function routeNameError(menus: readonly Menu[], id: string | null, fields: MenuFields): DomainError | null {
  const other = routeNameTaken(menus, id, fields);
  if (other === null) return null;
  const name = routeNameOf({ ...fields, id: id ?? '' });
  const detail = `the route name "${name}" is menu ${other.id}'s ("${other.title}"): give this one another name`;
  return new DomainError('validation-failed', detail, { errors: [{ pointer: '/name', detail }] });
}
