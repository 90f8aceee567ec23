/**
 * How a user's permissions follow from their roles (RuoYi's rule; RuoYi-Vue-Plus is the Java admin framework whose tables the SQL directory
 * reads): the distinct, non-empty
 * permission strings of the menus of their enabled roles; the role `admin` holds every permission.
 */
import { ALL_PERMISSIONS } from './permission';

/** The role key that grants `*:*:*`. */
export const SUPER_ADMIN_ROLE = 'admin';

/**
 * One `sys_menu.permission` value as permission strings: RuoYi lets a menu list several,
 * comma-separated (`system:user:add,system:user:edit`); blanks are dropped.
 */
export function splitPermissionColumn(value: string | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Effective permissions of a user with these (enabled) roles and these menu permission values. */
export function effectivePermissions(roles: readonly string[], menuPermissions: Iterable<string | null | undefined>): string[] {
  if (roles.includes(SUPER_ADMIN_ROLE)) return [ALL_PERMISSIONS];
  const out = new Set<string>();
  for (const v of menuPermissions) for (const p of splitPermissionColumn(v)) out.add(p);
  return [...out].sort();
}
