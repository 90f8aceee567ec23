/**
 * Steps a migration file can name for what SQL cannot do portably on MariaDB and MySQL 8. A
 * statement of a migration file that starts with `@` is a step; any other statement is SQL.
 *
 *   @refuse-folded-clashes <table> [<table>...]  refuse, before anything changes, when two usernames of a
 *                                                table fold to one name (or a folded name is too long)
 *   @fill-folded-usernames <table>               set username_folded = foldUsername(username) on every row
 *   @unless-column <table>.<column> <statement>  run <statement> only when the column does not exist yet
 *   @unless-index <table>.<index> <statement>    run <statement> only when the index does not exist yet
 *   @unless-constraint <table>.<name> <statement> run <statement> only when the constraint (a foreign key, a check)
 *                                                does not exist yet
 *
 * Folding is Unicode NFKC, then lower case (src/domain/username.ts); SQL's LOWER() is neither, so the
 * folded column is computed here, in the application, exactly as the adapters compute it on insert.
 * The conditional steps keep a migration re-runnable where MySQL 8 has no `ADD COLUMN IF NOT EXISTS`.
 */
import type { PoolConnection, RowDataPacket } from 'mysql2/promise';
import { foldUsername } from '../../domain/username';

/** The width of the username_folded columns (migration 002): 191 characters index in any InnoDB row format. */
export const FOLDED_USERNAME_MAX = 191;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const FILL_BATCH = 500;

export type MigrationStep =
  | { readonly kind: 'sql'; readonly sql: string }
  | { readonly kind: 'refuse-folded-clashes'; readonly tables: readonly string[] }
  | { readonly kind: 'fill-folded-usernames'; readonly table: string }
  | {
      readonly kind: 'unless-column' | 'unless-index' | 'unless-constraint';
      readonly table: string;
      readonly name: string;
      readonly sql: string;
    };

/** A migration the runner refused to apply because of the data it found; nothing was changed. */
export class MigrationRefused extends Error {
  override readonly name = 'MigrationRefused';
}

function ident(value: string | undefined, statement: string): string {
  if (value === undefined || !IDENT.test(value))
    throw new Error(`migration step "${statement.slice(0, 80)}": "${value ?? ''}" is not a table, column or index name`);
  return value;
}

/** Parses one statement of a migration file; an unknown `@` step is an error (found before anything runs). */
export function parseStep(statement: string): MigrationStep {
  if (!statement.startsWith('@')) return { kind: 'sql', sql: statement };
  const m = /^@([a-z-]+)\s+(\S+)(?:\s+([\s\S]+))?$/.exec(statement);
  const kind = m?.[1];
  if (m && kind === 'refuse-folded-clashes') {
    return { kind, tables: [m[2], ...(m[3]?.trim().split(/\s+/) ?? [])].map((t) => ident(t, statement)) };
  }
  if (m && kind === 'fill-folded-usernames' && m[3] === undefined) return { kind, table: ident(m[2], statement) };
  if (m && (kind === 'unless-column' || kind === 'unless-index' || kind === 'unless-constraint') && m[3] !== undefined) {
    const [table, name, extra] = (m[2] as string).split('.');
    if (extra !== undefined) throw new Error(`migration step "${statement.slice(0, 80)}": expected <table>.<name>`);
    return { kind, table: ident(table, statement), name: ident(name, statement), sql: m[3].trim() };
  }
  throw new Error(
    `unknown migration step "${statement.slice(0, 80)}" (expected @refuse-folded-clashes, ` +
      `@fill-folded-usernames, @unless-column, @unless-index or @unless-constraint)`,
  );
}

async function usernames(conn: PoolConnection, table: string): Promise<{ id: string; username: string }[]> {
  const [rows] = await conn.query<RowDataPacket[]>('SELECT id, username FROM ?? ORDER BY id', [table]);
  return rows.map((r) => ({ id: String(r.id), username: String(r.username) }));
}

/**
 * Names that would break the unique index on the folded name: groups that fold to one name and folded
 * names longer than the column. The key drops trailing spaces because the binary collation pads
 * ('bob ' = 'bob' in the index), so the report matches what the index would refuse.
 */
export function foldedClashes(rows: readonly { id: string; username: string }[]): string[] {
  const groups = new Map<string, { id: string; username: string }[]>();
  for (const r of rows) {
    const key = foldUsername(r.username).replace(/ +$/, '');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const show = (r: { id: string; username: string }) => `${JSON.stringify(r.username)} (id ${r.id})`;
  const problems = [...groups.values()].filter((g) => g.length > 1).map((g) => `${g.map(show).join(' / ')} fold to the same name`);
  for (const r of rows) {
    if (foldUsername(r.username).length > FOLDED_USERNAME_MAX)
      problems.push(`${show(r)} folds to more than ${FOLDED_USERNAME_MAX} characters`);
  }
  return problems;
}

/** Every clash of every table in one message, so one run tells the operator everything to fix. */
async function refuseClashes(conn: PoolConnection, tables: readonly string[], migration: string, outcome: string): Promise<void> {
  const found: string[] = [];
  for (const table of tables) {
    const problems = foldedClashes(await usernames(conn, table));
    if (problems.length > 0) found.push(`in ${table}: ${problems.join('; ')}`);
  }
  if (found.length === 0) return;
  throw new MigrationRefused(
    `migration ${migration} refused: usernames must be unique whatever their case (Unicode ` +
      `NFKC, then lower case), but ${found.join('; ')}. ` +
      `Rename or remove all but one account of each group, then run the migration again. ${outcome}`,
  );
}

async function fillFolded(conn: PoolConnection, table: string, migration: string): Promise<void> {
  // Rows may have arrived since the check at the start of the migration.
  await refuseClashes(conn, [table], migration, 'The new column is in place but not yet filled or unique; the next run completes it.');
  const [rows] = await conn.query<RowDataPacket[]>('SELECT id, username, username_folded FROM ??', [table]);
  const stale = rows.filter((r) => r.username_folded !== foldUsername(String(r.username)));
  for (let i = 0; i < stale.length; i += FILL_BATCH) {
    const batch = stale.slice(i, i + FILL_BATCH);
    const cases = batch.map(() => 'WHEN ? THEN ?').join(' ');
    const values = batch.flatMap((r) => [String(r.id), foldUsername(String(r.username))]);
    await conn.query(`UPDATE ?? SET username_folded = CASE id ${cases} END WHERE id IN (?)`, [
      table,
      ...values,
      batch.map((r) => String(r.id)),
    ]);
  }
}

const EXISTS: Readonly<Record<'column' | 'index' | 'constraint', string>> = {
  column: 'SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ? LIMIT 1',
  index: 'SELECT 1 FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? LIMIT 1',
  constraint:
    'SELECT 1 FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ? AND ' +
    'CONSTRAINT_NAME = ? LIMIT 1',
};

async function exists(conn: PoolConnection, what: 'column' | 'index' | 'constraint', table: string, name: string): Promise<boolean> {
  const sql = EXISTS[what];
  const [rows] = await conn.query<RowDataPacket[]>(sql, [table, name]);
  return rows.length > 0;
}

/** Runs one step of migration `migration` (NNN_name, for messages). */
export async function runStep(conn: PoolConnection, step: MigrationStep, migration: string): Promise<void> {
  switch (step.kind) {
    case 'sql':
      await conn.query(step.sql);
      return;
    case 'refuse-folded-clashes':
      return refuseClashes(conn, step.tables, migration, 'Nothing was changed.');
    case 'fill-folded-usernames':
      return fillFolded(conn, step.table, migration);
    case 'unless-column':
    case 'unless-index':
    case 'unless-constraint':
      if (!(await exists(conn, step.kind.slice('unless-'.length) as 'column' | 'index' | 'constraint', step.table, step.name)))
        await conn.query(step.sql);
      return;
  }
}
