/**
 * One account per name, whatever its case or Unicode form: names are compared by their folded
 * form (NFKC, then lower case). The stored spelling is what is shown; the folded form is what
 * lookups, uniqueness and per-account counters use.
 */
export function foldUsername(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}
