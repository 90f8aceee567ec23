/**
 * The MySQL / MariaDB connection pool (mysql2). The URL names the server and the database only;
 * the credentials come from their own settings (the password is a secret, never part of a URL
 * that might be logged).
 */
import { createPool, type Pool } from 'mysql2/promise';

export interface DatasourceSettings {
  /** `mysql://host[:port]/database` (also `mariadb://`, and the JDBC form `jdbc:mysql://...`; query parameters are ignored). */
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export interface DatasourceAddress {
  readonly host: string;
  readonly port: number;
  readonly database: string;
}

const SCHEMES = new Set(['mysql:', 'mariadb:']);

/** Parses a datasource URL; throws an Error whose message says what is wrong. */
export function parseDatasourceUrl(url: string): DatasourceAddress {
  const text = url.trim().replace(/^jdbc:/i, '');
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Error('expected mysql://host[:port]/database');
  }
  if (!SCHEMES.has(u.protocol.toLowerCase())) throw new Error(`unsupported scheme "${u.protocol}" (expected mysql:// or mariadb://)`);
  if (u.password !== '') throw new Error('the URL carries a password; set it in svc.datasource.password (SVC_DATASOURCE_PASSWORD) instead');
  if (u.hostname === '') throw new Error('the URL names no host');
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/')) throw new Error('the URL names no database (mysql://host:port/<database>)');
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port === '' ? 3306 : Number(u.port), database };
}

export interface PoolOptions {
  readonly connectionLimit?: number;
  readonly connectTimeoutMs?: number;
  /** Override the database named in the URL (tests, migrations of a throwaway database). */
  readonly database?: string;
}

export function createMySqlPool(ds: DatasourceSettings, opts: PoolOptions = {}): Pool {
  const addr = parseDatasourceUrl(ds.url);
  return createPool({
    host: addr.host,
    port: addr.port,
    user: ds.username,
    password: ds.password,
    database: opts.database ?? addr.database,
    connectionLimit: opts.connectionLimit ?? 10,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
    waitForConnections: true,
    queueLimit: 0,
    charset: 'utf8mb4',
    // BIGINT ids come back as strings (the port's ids are strings; no precision loss).
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    // One statement per call: a parameter can never smuggle a second statement in.
    multipleStatements: false,
  });
}
