/**
 * Changes a role's name, order, status and remark (`PUT /system/role/{id}`); its key never changes (users and
 * settings such as svc.mfa.required-roles name it). Enabling or disabling it changes what its users hold, so the caller
 * must hold everything the role grants (delegation) and the live sessions of its users follow at once. The role
 * `admin` cannot be disabled: it would take `*:*:*` from every administrator at once, the caller's included.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import type { Role, RoleAdministration, RoleFields } from '../ports/role-administration';
import { TOKENS } from '../tokens';
import type { Actor } from '../users/delegation';
import { ACCESS_DELEGATION_REASONS, managedRole } from './access-delegation';
import { ResyncHolders, type HoldersSync } from './resync-holders';
import { roleError } from './role-errors';

const invalid = (pointer: string, detail: string) => new DomainError('validation-failed', detail, { errors: [{ pointer, detail }] });

@injectable()
export class UpdateRole {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    ...ACCESS_DELEGATION_REASONS,
    ...ResyncHolders.reasons,
    'validation-failed',
    'directory-read-only',
    'directory-unavailable',
  ];

  constructor(
    @inject(TOKENS.RoleAdministration) private readonly roles: RoleAdministration,
    @inject(ResyncHolders) private readonly resync: ResyncHolders,
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly id: string;
    /** When sent, the role's own key (a key never changes). */
    readonly key?: string;
    readonly fields: RoleFields;
  }): Promise<{ role: Role } & HoldersSync> {
    const before = await managedRole(this.roles, input.actor, input.id, 'change this role');
    if (input.key !== undefined && input.key !== before.key) throw invalid('/key', "A role's key never changes; create another role.");
    if (before.key === SUPER_ADMIN_ROLE && !input.fields.enabled) throw invalid('/enabled', 'The role admin cannot be disabled.');
    const r = await this.roles.updateRole(input.id, input.fields);
    if (!r.ok) throw roleError(r);
    const sync =
      r.role.enabled === before.enabled
        ? { sessionsUpdated: 0, sessionsEnded: 0 }
        : await this.resync.execute({ userIds: await this.roles.usersOfRole(input.id) });
    return { role: r.role, ...sync };
  }
}
