/**
 * Delegation rules of user administration: nobody hands out, or reaches, more than they hold.
 *
 * - A caller grants (on creation or a role change) only roles whose every permission its own
 *   permissions cover (`permissionsNotCovered`: `*:*:*` covers all; `system:*` covers
 *   `system:user:add`; a pattern is covered only by an equal or wider one).
 * - A caller changes the roles of, disables, enables, resets, edits or deletes only an account whose
 *   permissions it covers, those of its disabled roles and menus included (they are dormant, not
 *   gone): nobody but a `*:*:*` holder touches a `*:*:*` account, active or dormant.
 * - A caller never changes its own roles or enabled flag (that is someone else's call).
 *
 * Every user-administration use case asks this one class before it writes; a refusal is
 * 403 `delegation-denied` naming what is missing, and nothing is written. The caller's
 * permissions are those of its session (the snapshot every permission check of the request
 * reads; role changes replace it at once). The check and the write are two steps: a target
 * whose roles another administrator widens between them is judged on what it held just before.
 */
import { inject, injectable, optional } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import { permissionsNotCovered } from '../../domain/permission';
import type { UserAdministration } from '../ports/user-administration';
import type { DirectoryUser, UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';

/** Who asks: the logged-in administrator (from its session). */
export interface Actor {
  readonly userId: string;
  readonly permissions: readonly string[];
}

/** What a caller does to another account (the words of the refusal message). */
export type ManageAction = 'change the roles of' | 'disable' | 'enable' | 'reset the password of' | 'delete' | 'unlock' | 'edit' | 'manage';

const list = (perms: readonly string[]): string => perms.map((p) => `"${p}"`).join(', ');

const denied = (message: string): DomainError => new DomainError('delegation-denied', message);

@injectable()
export class Delegation {
  /** The failures this rule may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['delegation-denied', 'validation-failed', 'user-not-found', 'directory-unavailable'];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.UserAdministration) @optional() private readonly administration: UserAdministration | undefined,
  ) {}

  /**
   * Refuses unless `actor` covers every permission `roleKeys` could grant. An unknown role is a
   * validation failure at `/roles`, as the write would report it.
   */
  async assertMayGrant(actor: Actor, roleKeys: readonly string[]): Promise<void> {
    if (roleKeys.length === 0) return;
    if (this.administration === undefined) throw new Error('role grants need a UserAdministration (admin directory)');
    const grant = await this.administration.rolePermissions(roleKeys);
    if (!grant.ok) throw new DomainError('validation-failed', grant.detail, { errors: [{ pointer: '/roles', detail: grant.detail }] });
    const missing = permissionsNotCovered(actor.permissions, grant.permissions);
    if (missing.length > 0) {
      throw denied(
        `You cannot grant ${roleKeys.length === 1 ? 'this role' : 'these roles'}: they grant ${list(missing)}, which you do not hold.`,
      );
    }
  }

  /**
   * The target account, when `actor` may `action` it: not itself, and every permission the target
   * holds is one the actor holds too. Unknown target: user-not-found.
   */
  async assertMayManage(actor: Actor, targetUserId: string, action: ManageAction): Promise<DirectoryUser> {
    if (targetUserId === actor.userId) throw denied(`You cannot ${action} your own account here; ask another administrator.`);
    const target = await this.directory.findById(targetUserId);
    if (target === null) throw new DomainError('user-not-found', `No user with id "${targetUserId}".`);
    const missing = permissionsNotCovered(actor.permissions, [...target.permissions, ...(await this.dormantPermissions(targetUserId))]);
    if (missing.length > 0) throw denied(`You cannot ${action} this account: it holds ${list(missing)}, which you do not hold.`);
    return target;
  }

  /**
   * What the account's roles could grant, disabled roles and menus included: an account holding a
   * dormant `*:*:*` role is a super admin the day it is enabled, and is judged as one.
   */
  private async dormantPermissions(userId: string): Promise<readonly string[]> {
    if (this.administration === undefined) return [];
    const roles = await this.administration.assignedRoles(userId);
    if (roles === null || roles.length === 0) return [];
    const grant = await this.administration.rolePermissions(roles);
    return grant.ok ? grant.permissions : [];
  }
}
