/**
 * A small migration runner: versioned SQL files (`NNN_name.sql`) applied in order, each recorded
 * in `schema_migrations` with a checksum. Running it twice applies nothing the second time; a file
 * changed after it was applied is refused; concurrent runners are serialised with GET_LOCK.
 *
 * Files are split into statements at a `;` that ends a line, so a migration must not put `;` at
 * the end of a line inside a string literal. MySQL commits DDL implicitly, so a migration is not
 * atomic: write statements that can be re-run (CREATE TABLE IF NOT EXISTS ...). A statement that
 * starts with `@` is a step run in code (./migration-steps.ts: data checks that refuse before any
 * change, values SQL cannot compute, DDL guarded by the schema's current state).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { packageRoot } from '../package-root';
import { parseStep, runStep, type MigrationStep } from './migration-steps';

export const DEFAULT_MIGRATIONS_DIR = path.join(packageRoot(), 'db/migrations');
const FILE = /^(\d{3,})_([A-Za-z0-9_-]+)\.sql$/;
const LOCK = 'authguard_schema_migrations';

export interface MigrationFile {
  readonly version: string;
  readonly name: string;
  readonly checksum: string;
  readonly statements: readonly string[];
  /** The statements parsed (SQL, or a step run in code); an unknown step fails the read. */
  readonly steps: readonly MigrationStep[];
}

export function splitStatements(sql: string): string[] {
  const withoutComments = sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  return withoutComments
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const seen = new Set<string>();
  return files.map((f) => {
    const m = FILE.exec(f);
    if (!m) throw new Error(`migration file "${f}" is not named NNN_name.sql`);
    const version = m[1] as string;
    if (seen.has(version)) throw new Error(`two migration files share version ${version}`);
    seen.add(version);
    const text = readFileSync(path.join(dir, f), 'utf8');
    const statements = splitStatements(text);
    return {
      version,
      name: m[2] as string,
      checksum: createHash('sha256').update(text).digest('hex'),
      statements,
      steps: statements.map(parseStep),
    };
  });
}

export interface MigrateResult {
  readonly applied: readonly string[];
  readonly alreadyApplied: readonly string[];
}

async function withLock<T>(conn: PoolConnection, fn: () => Promise<T>): Promise<T> {
  const [rows] = await conn.query<RowDataPacket[]>('SELECT GET_LOCK(?, 60) AS got', [LOCK]);
  if (rows[0]?.got !== 1) throw new Error('could not take the migration lock within 60 s (another migration is running?)');
  try {
    return await fn();
  } finally {
    await conn.query('SELECT RELEASE_LOCK(?)', [LOCK]);
  }
}

export async function migrate(pool: Pool, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrateResult> {
  const files = readMigrations(dir);
  const conn = await pool.getConnection();
  try {
    return await withLock(conn, async () => {
      await conn.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version    VARCHAR(32)  NOT NULL PRIMARY KEY,
           name       VARCHAR(200) NOT NULL,
           checksum   CHAR(64)     NOT NULL,
           applied_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
         ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4`,
      );
      const [rows] = await conn.query<RowDataPacket[]>('SELECT version, checksum FROM schema_migrations');
      const done = new Map(rows.map((r) => [String(r.version), String(r.checksum)]));
      const applied: string[] = [];
      const alreadyApplied: string[] = [];
      for (const f of files) {
        const previous = done.get(f.version);
        if (previous !== undefined) {
          if (previous !== f.checksum)
            throw new Error(`migration ${f.version}_${f.name} was changed after it was applied; add a new migration instead`);
          alreadyApplied.push(f.version);
          continue;
        }
        for (const step of f.steps) await runStep(conn, step, `${f.version}_${f.name}`);
        await conn.query('INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)', [f.version, f.name, f.checksum]);
        applied.push(f.version);
      }
      return { applied, alreadyApplied };
    });
  } finally {
    conn.release();
  }
}
