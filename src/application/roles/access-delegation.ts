/**
 * The delegation rule of role and menu administration (the rule of user administration, src/application/users/
 * delegation.ts, applied to what a role or a menu grants): nobody changes a role or a menu that grants more than they
 * hold, nor makes one grant more than they hold. A role's grant counts its disabled menus (dormant, not gone: enabling
 * them later would hand them out) and the role `admin` grants `*:*:*`, so only a `*:*:*` holder touches it. A
 * refusal is 403 `delegation-denied` naming what is missing; nothing is written.
 */
import { DomainError, type Reason } from '../../domain/errors';
import { permissionsNotCovered } from '../../domain/permission';
import type { Role, RoleAdministration } from '../ports/role-administration';
import type { Actor } from '../users/delegation';

export const ACCESS_DELEGATION_REASONS: readonly Reason[] = ['delegation-denied', 'role-not-found'];

/** Refuses unless `actor` holds every one of `granted` (what the role or menu grants before and after the change). */
export function assertCovers(actor: Actor, granted: readonly string[], what: string): void {
  const missing = permissionsNotCovered(actor.permissions, granted);
  if (missing.length === 0) return;
  throw new DomainError(
    'delegation-denied',
    `You cannot ${what}: it grants ${missing.map((p) => `"${p}"`).join(', ')}, which you do not hold.`,
  );
}

/** The role `id`, when `actor` may change it: it holds everything the role grants (its disabled menus included). */
export async function managedRole(roles: RoleAdministration, actor: Actor, id: string, what: string): Promise<Role> {
  const role = await roles.findRole(id);
  if (role === null) throw new DomainError('role-not-found', `No role with id "${id}".`);
  assertCovers(actor, role.permissions, what);
  return role;
}
