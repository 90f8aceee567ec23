/**
 * Permission strings are colon-separated segments (`system:user:add`).
 *
 * A granted pattern matches a required permission when:
 *  - it is `*` or `*:*:*` (everything), or equal to it;
 *  - otherwise segment by segment: `*` matches exactly one segment, and a trailing `*`
 *    also matches all remaining segments (`system:*` grants `system:user:add`).
 *  `system:*:list` grants `system:user:list` but not `system:user:dept:list`;
 *  `system:user:*` does not grant `system:user` (a `*` must match at least one segment).
 */
export const ALL_PERMISSIONS = '*:*:*';

export function permissionMatches(granted: string, required: string): boolean {
  if (granted === '*' || granted === ALL_PERMISSIONS) return true;
  if (granted === required) return true;
  if (granted.length === 0 || required.length === 0) return false;
  const g = granted.split(':');
  const r = required.split(':');
  for (let i = 0; i < g.length; i++) {
    const seg = g[i];
    const isLast = i === g.length - 1;
    if (i >= r.length) return false; // pattern longer than the requirement
    if (seg === '*') {
      if (isLast) return true; // trailing * swallows the rest (at least one segment)
      continue;
    }
    if (seg !== r[i]) return false;
  }
  return g.length === r.length;
}

export function hasPermission(granted: readonly string[], required: string): boolean {
  for (const g of granted) if (permissionMatches(g, required)) return true;
  return false;
}

export type MatchMode = 'AND' | 'OR';

export function hasPermissions(granted: readonly string[], required: readonly string[], mode: MatchMode): boolean {
  if (required.length === 0) return true;
  return mode === 'AND' ? required.every((p) => hasPermission(granted, p)) : required.some((p) => hasPermission(granted, p));
}

export function hasRoles(granted: readonly string[], required: readonly string[], mode: MatchMode): boolean {
  if (required.length === 0) return true;
  const set = new Set(granted);
  return mode === 'AND' ? required.every((r) => set.has(r)) : required.some((r) => set.has(r));
}

/**
 * The permissions of `wanted` that `held` does not cover: a wanted permission (itself perhaps a
 * pattern such as `system:*`) is covered when one held pattern matches it read as a literal, so
 * `system:*` covers `system:user:*` and `system:user:add`, while `system:user:*` does not cover
 * `system:*` and only `*:*:*` (or `*`) covers `*:*:*`. Delegation uses it: nobody hands out more
 * than they hold. Blank entries are ignored; the answer keeps `wanted`'s order, without repeats.
 */
export function permissionsNotCovered(held: readonly string[], wanted: readonly string[]): string[] {
  const missing = new Set<string>();
  for (const w of wanted) if (w.trim() !== '' && !hasPermission(held, w)) missing.add(w);
  return [...missing];
}
