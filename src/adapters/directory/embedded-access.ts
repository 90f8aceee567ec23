/**
 * The embedded directory's roles and menus (svc.directory=file): the roles of the users file and the menu tree of
 * the `menus.yml` beside it, held in memory. Changes made through the service live in memory only, like every change of the
 * embedded directory (the files are never rewritten; prod wraps the writes read-only: src/main/directories.ts).
 *
 * A role's permissions are those of its menus and those its file entry lists outright (`permissions`, the form files
 * written before menus.yml use; `PUT /system/role/{id}/menus` changes the menus only). At a login only enabled menus
 * count; what a role could grant (delegation) counts them all. The role `admin` holds `*:*:*`. The users holding a
 * role are the user directory's business: it registers itself as `holders` (InMemoryUserDirectory does).
 */
import type { MenuCatalogue, MenuRemoval, MenuWrite } from '../../application/ports/menu-catalogue';
import type { Role, RoleAdministration, RoleFields, RoleFilter, RoleRemoval, RoleWrite } from '../../application/ports/role-administration';
import { treeProblem, type Menu, type MenuFields } from '../../domain/menu';
import { ALL_PERMISSIONS } from '../../domain/permission';
import { splitPermissionColumn, SUPER_ADMIN_ROLE } from '../../domain/role-permissions';
import { compareIds, type DirectoryFile } from './directory-file';

/** What the user directory asks of its roles. */
export interface RoleBook {
  has(key: string): boolean;
  isEnabled(key: string): boolean;
  /** `activeOnly`: the enabled menus' permissions (a login's); else every menu's (what the role could grant). */
  permissionsOf(key: string, activeOnly: boolean): readonly string[];
}

interface RoleRecord extends Omit<Role, 'menuIds' | 'permissions'> {
  readonly menuIds: readonly string[];
  /** Permissions the file lists outright for the role. */
  readonly direct: readonly string[];
}

const pick = (f: RoleFields): RoleFields => ({ name: f.name, orderNum: f.orderNum, enabled: f.enabled, remark: f.remark });

const nextId = (ids: Iterable<string>): string => String(Math.max(0, ...[...ids].map((k) => (/^\d+$/.test(k) ? Number(k) : 0))) + 1);

export class EmbeddedAccess implements MenuCatalogue, RoleAdministration, RoleBook {
  private readonly menuById = new Map<string, Menu>();
  private readonly roleById = new Map<string, RoleRecord>();
  private readonly roleByKey = new Map<string, RoleRecord>();
  /** The ids of the users holding a role key (set by the user directory). */
  private holders: (roleKey: string) => readonly string[] = () => [];

  constructor(roles: DirectoryFile['roles'] = {}, menus: readonly Menu[] = []) {
    for (const m of menus) this.menuById.set(m.id, m);
    const entries = Object.entries(roles);
    const taken = new Set(entries.flatMap(([, v]) => (Array.isArray(v) || v.id === undefined ? [] : [String(v.id)])));
    for (const [key, v] of entries) {
      const def = Array.isArray(v) ? { permissions: v } : v;
      const id = def.id !== undefined ? String(def.id) : nextId([...taken, ...this.roleById.keys()]);
      if (this.roleById.has(id)) throw new Error(`roles "${this.roleById.get(id)?.key}" and "${key}" have the same id ${id}`);
      const menuIds = [...new Set((def.menus ?? []).map(String))];
      const unknown = menuIds.filter((m) => !this.menuById.has(m));
      if (unknown.length > 0) throw new Error(`role "${key}": no menu with id ${unknown.join(', ')} in the menus.yml beside it`);
      this.putRole({
        id,
        key,
        name: def.name ?? key,
        orderNum: def.order ?? 0,
        enabled: def.enabled ?? true,
        remark: def.remark ?? '',
        menuIds,
        direct: def.permissions ?? [],
      });
    }
  }

  /** Where the users holding a role are found (the user directory built on this book). */
  setHolders(holders: (roleKey: string) => readonly string[]): void {
    this.holders = holders;
  }

  private putRole(r: RoleRecord): void {
    this.roleById.set(r.id, r);
    this.roleByKey.set(r.key, r);
  }

  private grants(r: RoleRecord, activeOnly: boolean): string[] {
    if (r.key === SUPER_ADMIN_ROLE) return [ALL_PERMISSIONS];
    const menus = r.menuIds.map((id) => this.menuById.get(id)).filter((m): m is Menu => m !== undefined && (!activeOnly || m.enabled));
    return [...new Set([...menus.flatMap((m) => splitPermissionColumn(m.permission)), ...r.direct])].filter((p) => p.trim() !== '');
  }

  private view(r: RoleRecord): Role {
    const { direct: _direct, ...role } = r;
    return { ...role, menuIds: [...r.menuIds], permissions: this.grants(r, false) };
  }

  // RoleBook

  has(key: string): boolean {
    return this.roleByKey.has(key);
  }

  isEnabled(key: string): boolean {
    return this.roleByKey.get(key)?.enabled === true;
  }

  permissionsOf(key: string, activeOnly: boolean): readonly string[] {
    const r = this.roleByKey.get(key);
    return r === undefined ? [] : this.grants(r, activeOnly);
  }

  // MenuCatalogue

  async menus(): Promise<readonly Menu[]> {
    return [...this.menuById.values()];
  }

  async findMenu(id: string): Promise<Menu | null> {
    return this.menuById.get(id) ?? null;
  }

  async createMenu(fields: MenuFields): Promise<MenuWrite> {
    const problem = treeProblem([...this.menuById.values()], null, fields);
    if (problem !== null) return { ok: false, reason: 'invalid-tree', detail: problem };
    const menu: Menu = { ...fields, id: nextId(this.menuById.keys()) };
    this.menuById.set(menu.id, menu);
    return { ok: true, menu };
  }

  async updateMenu(id: string, fields: MenuFields): Promise<MenuWrite> {
    if (!this.menuById.has(id)) return { ok: false, reason: 'menu-not-found', detail: `No menu with id "${id}".` };
    const problem = treeProblem([...this.menuById.values()], id, fields);
    if (problem !== null) return { ok: false, reason: 'invalid-tree', detail: problem };
    const menu: Menu = { ...fields, id };
    this.menuById.set(id, menu);
    return { ok: true, menu };
  }

  async removeMenu(id: string): Promise<MenuRemoval> {
    if (!this.menuById.has(id)) return { ok: false, reason: 'menu-not-found', detail: `No menu with id "${id}".` };
    const kids = [...this.menuById.values()].filter((m) => m.parentId === id).length;
    if (kids > 0) return { ok: false, reason: 'menu-has-children', detail: `Menu ${id} has ${kids} child menu(s): remove them first.` };
    const roles = [...this.roleById.values()].filter((r) => r.menuIds.includes(id)).map((r) => r.key);
    if (roles.length > 0) {
      return { ok: false, reason: 'menu-in-use', detail: `Menu ${id} is held by role(s) ${roles.join(', ')}: take it from them first.` };
    }
    this.menuById.delete(id);
    return { ok: true };
  }

  async usersOfMenu(id: string): Promise<readonly string[]> {
    const keys = [...this.roleById.values()].filter((r) => r.menuIds.includes(id)).map((r) => r.key);
    return [...new Set(keys.flatMap((k) => this.holders(k)))];
  }

  // RoleAdministration

  async listRoles(filter: RoleFilter, offset: number, limit: number): Promise<{ total: number; roles: Role[] }> {
    const has = (value: string, part: string | undefined) => part === undefined || value.toLowerCase().includes(part.toLowerCase());
    const all = [...this.roleById.values()]
      .filter((r) => has(r.key, filter.key) && has(r.name, filter.name) && (filter.enabled === undefined || r.enabled === filter.enabled))
      .sort((a, b) => a.orderNum - b.orderNum || compareIds(a.id, b.id));
    return { total: all.length, roles: all.slice(offset, offset + limit).map((r) => this.view(r)) };
  }

  async findRole(id: string): Promise<Role | null> {
    const r = this.roleById.get(id);
    return r === undefined ? null : this.view(r);
  }

  private unknownMenus(menuIds: readonly string[]): RoleWrite | null {
    const unknown = [...new Set(menuIds)].filter((m) => !this.menuById.has(m));
    return unknown.length === 0 ? null : { ok: false, reason: 'unknown-menu', detail: `No menu with id ${unknown.join(', ')}.` };
  }

  async createRole(key: string, fields: RoleFields, menuIds: readonly string[]): Promise<RoleWrite> {
    if (this.roleByKey.has(key)) return { ok: false, reason: 'role-key-taken', detail: `The role key "${key}" is already taken.` };
    const unknown = this.unknownMenus(menuIds);
    if (unknown !== null) return unknown;
    const role: RoleRecord = { ...pick(fields), id: nextId(this.roleById.keys()), key, menuIds: [...new Set(menuIds)], direct: [] };
    this.putRole(role);
    return { ok: true, role: this.view(role) };
  }

  private change(id: string, change: (r: RoleRecord) => RoleRecord): RoleWrite {
    const r = this.roleById.get(id);
    if (r === undefined) return { ok: false, reason: 'role-not-found', detail: `No role with id "${id}".` };
    const updated = change(r);
    this.putRole(updated);
    return { ok: true, role: this.view(updated) };
  }

  async updateRole(id: string, fields: RoleFields): Promise<RoleWrite> {
    return this.change(id, (r) => ({ ...r, ...pick(fields) }));
  }

  async setRoleMenus(id: string, menuIds: readonly string[]): Promise<RoleWrite> {
    if (!this.roleById.has(id)) return { ok: false, reason: 'role-not-found', detail: `No role with id "${id}".` };
    return this.unknownMenus(menuIds) ?? this.change(id, (r) => ({ ...r, menuIds: [...new Set(menuIds)] }));
  }

  async removeRole(id: string): Promise<RoleRemoval> {
    const r = this.roleById.get(id);
    if (r === undefined) return { ok: false, reason: 'role-not-found', detail: `No role with id "${id}".` };
    const users = this.holders(r.key).length;
    if (users > 0)
      return { ok: false, reason: 'role-in-use', detail: `Role "${r.key}" is assigned to ${users} user(s): take it from them first.` };
    this.roleById.delete(id);
    this.roleByKey.delete(r.key);
    return { ok: true, role: this.view(r) };
  }

  async usersOfRole(id: string): Promise<readonly string[]> {
    const r = this.roleById.get(id);
    return r === undefined ? [] : this.holders(r.key);
  }
}
