/**
 * Roles of admin accounts and the menus they hold (sys_role and sys_role_menu, or the embedded directory's roles): a
 * user's permissions are those of the enabled menus of their enabled roles (the role `admin` holds `*:*:*`).
 * "Not found", a taken key, an unknown menu and a refused removal are values; nothing is half-written.
 */
export interface Role {
  readonly id: string;
  /** The key users and settings (svc.mfa.required-roles) name the role by; it never changes. */
  readonly key: string;
  readonly name: string;
  readonly orderNum: number;
  /** A disabled role stays assigned but grants nothing until it is enabled again. */
  readonly enabled: boolean;
  readonly remark: string;
  /** The menus the role holds (ids), enabled or not. */
  readonly menuIds: readonly string[];
  /**
   * Every permission the role could grant: its menus' (disabled ones included) and, on the embedded directory, the
   * permissions its file entry lists outright; `admin`: `*:*:*`.
   */
  readonly permissions: readonly string[];
}

export interface RoleFilter {
  /** Part of the key (case-insensitive). */
  readonly key?: string;
  /** Part of the name (case-insensitive). */
  readonly name?: string;
  readonly enabled?: boolean;
}

/** What a create or an edit sends; the key only on creation. */
export interface RoleFields {
  readonly name: string;
  readonly orderNum: number;
  readonly enabled: boolean;
  readonly remark: string;
}

export type RoleWrite =
  | { readonly ok: true; readonly role: Role }
  | { readonly ok: false; readonly reason: 'role-not-found' | 'role-key-taken' | 'unknown-menu'; readonly detail: string };

export type RoleRemoval =
  | { readonly ok: true; readonly role: Role }
  | { readonly ok: false; readonly reason: 'role-not-found' | 'role-in-use'; readonly detail: string };

export interface RoleAdministration {
  /** Roles matching the filter, ordered by order number then id, and how many match. */
  listRoles(filter: RoleFilter, offset: number, limit: number): Promise<{ total: number; roles: Role[] }>;
  findRole(id: string): Promise<Role | null>;
  /** A new role with these menus; its key is unique (`role-key-taken`), its menus must exist (`unknown-menu`). */
  createRole(key: string, fields: RoleFields, menuIds: readonly string[]): Promise<RoleWrite>;
  updateRole(id: string, fields: RoleFields): Promise<RoleWrite>;
  /** Replaces the role's menus with exactly these (duplicates ignored); an unknown id changes nothing. */
  setRoleMenus(id: string, menuIds: readonly string[]): Promise<RoleWrite>;
  /** Removes a role no user holds (`role-in-use` while one does), and its menu links. */
  removeRole(id: string): Promise<RoleRemoval>;
  /** The ids of the users the role is assigned to. */
  usersOfRole(id: string): Promise<readonly string[]>;
}
