/**
 * Tests that need MariaDB / MySQL run whenever it is reachable (MARIADB_URL, default
 * mysql://127.0.0.1:3306/test, user root, empty password). Without it they are skipped with a loud
 * notice, except under CI=true, where a missing server fails the run. Each suite works in a
 * database of its own (agtest_<pid>_<random>), created here and dropped when the suite ends.
 */
import { randomBytes } from 'node:crypto';
import { createConnection, type Pool } from 'mysql2/promise';
import { createMySqlPool, parseDatasourceUrl, type DatasourceSettings } from '../../src/adapters/sql/mysql-pool';
import { migrate } from '../../src/adapters/sql/migrator';

export const MARIADB: DatasourceSettings = {
  url: process.env.MARIADB_URL ?? 'mysql://127.0.0.1:3306/test',
  username: process.env.MARIADB_USER ?? 'root',
  password: process.env.MARIADB_PASSWORD ?? '',
};

let mariaUp: Promise<boolean> | undefined;

export function mariaDbAvailable(): Promise<boolean> {
  mariaUp ??= (async () => {
    const a = parseDatasourceUrl(MARIADB.url);
    try {
      const c = await createConnection({
        host: a.host,
        port: a.port,
        user: MARIADB.username,
        password: MARIADB.password,
        connectTimeout: 1500,
      });
      await c.query('SELECT 1');
      await c.end();
      return true;
    } catch {
      return false;
    }
  })();
  return mariaUp;
}

/** Call in a `before` hook: skips the suite loudly when MariaDB is down, or fails it under CI=true. */
export async function requireMariaDb(ctx: Mocha.Context): Promise<void> {
  if (await mariaDbAvailable()) return;
  if (process.env.CI === 'true') throw new Error(`MariaDB is not reachable at ${MARIADB.url} and CI=true: SQL tests must run in CI`);
  console.warn(
    `\n  !!! SKIPPING MariaDB tests: not reachable at ${MARIADB.url} as ${MARIADB.username} ` +
      `(set MARIADB_URL / MARIADB_USER / MARIADB_PASSWORD or start mariadbd) !!!\n`,
  );
  ctx.skip();
}

/** MySQL's errors of a schema not (yet) migrated: no such column, no such table. */
const ER_BAD_FIELD_ERROR = 1054;
const ER_NO_SUCH_TABLE = 1146;

const TABLES_CHILD_FIRST = [
  'account_password_history',
  'sys_user_role',
  'sys_role_menu',
  'sys_user',
  'sys_role',
  'sys_menu',
  'member',
  'mfa_totp',
  'mfa_totp_pending',
  'mfa_recovery_code',
  'passkey',
];

/** A database created for one suite and dropped afterwards, with the schema migrated. */
export class ScratchDatabase {
  private constructor(
    readonly name: string,
    readonly pool: Pool,
    private readonly admin: Pool,
  ) {}

  static async create(label: string, opts: { migrate?: boolean } = {}): Promise<ScratchDatabase> {
    const name = `agtest_${label.replace(/[^a-z0-9]/gi, '').slice(0, 16)}_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = createMySqlPool(MARIADB, { connectionLimit: 1 });
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const pool = createMySqlPool(MARIADB, { database: name, connectionLimit: 4 });
    const db = new ScratchDatabase(name, pool, admin);
    if (opts.migrate !== false) await migrate(pool);
    return db;
  }

  /** Datasource settings pointing at this database (for the app's configuration). */
  get settings(): DatasourceSettings {
    const a = parseDatasourceUrl(MARIADB.url);
    return { ...MARIADB, url: `mysql://${a.host}:${a.port}/${this.name}` };
  }

  /** Empties every directory table (between tests). */
  async clear(): Promise<void> {
    // Menus reference their parent (migration 007): one DELETE would trip over a child not yet deleted.
    await this.pool.query('UPDATE sys_menu SET parent_id = NULL').catch((e: { errno?: number }) => {
      if (e.errno !== ER_BAD_FIELD_ERROR && e.errno !== ER_NO_SUCH_TABLE) throw e;
    });
    for (const t of TABLES_CHILD_FIRST) await this.pool.query(`DELETE FROM \`${t}\``);
  }

  async drop(): Promise<void> {
    await this.pool.end();
    await this.admin.query(`DROP DATABASE IF EXISTS \`${this.name}\``);
    await this.admin.end();
  }
}
