/**
 * Operator commands (configuration as for the server: APP_PROFILE, config/*.yml, environment):
 *
 *   npm run db:migrate                 apply db/migrations to svc.datasource.url
 *   npm run db:seed                    add the dev accounts (refused in prod)
 *   npm run sessions -- resync <id>    bring the live admin sessions of user <id> in line with the
 *                                      directory, after roles/menus/status were changed in the database
 *
 * Exit status: 0 done, 1 failure, 2 usage or configuration refused.
 */
import 'reflect-metadata';
import bcrypt from 'bcryptjs';
import { ResyncUserSessions } from '../application/users/resync-user-sessions';
import { TOKENS } from '../application/tokens';
import { silentLogger } from '../adapters/logging/pino-logger';
import { seedDevAccounts } from '../adapters/sql/dev-seed';
import { MigrationRefused } from '../adapters/sql/migration-steps';
import { migrate } from '../adapters/sql/migrator';
import { createMySqlPool } from '../adapters/sql/mysql-pool';
import type { Pool } from 'mysql2/promise';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { createContainer } from './container';
import { createInfrastructure } from './infrastructure';
import { storeBackendOf } from './store-backends';

export interface OpsIo {
  readonly env?: NodeJS.ProcessEnv;
  readonly configDir?: string;
  out(line: string): void;
  err(line: string): void;
}

const USAGE = 'usage: ops-cli.ts db migrate | db seed | sessions resync <userId>';
const BCRYPT_COST = 10;

function datasourceOf(config: AppConfig, io: OpsIo): AppConfig['datasource'] | null {
  if (config.datasource.url === '' || config.datasource.username === '') {
    io.err('svc.datasource.url (SVC_DATASOURCE_URL) and svc.datasource.username (SVC_DATASOURCE_USERNAME) are required');
    return null;
  }
  return config.datasource;
}

/** A migration refused for the data it found (e.g. two usernames that differ only in case) prints why and exits 1. */
async function migrateCommand(pool: Pool, io: OpsIo): Promise<number> {
  try {
    const r = await migrate(pool);
    io.out(`migrations applied: ${r.applied.join(', ') || 'none'}; already applied: ${r.alreadyApplied.join(', ') || 'none'}`);
    return 0;
  } catch (e) {
    if (!(e instanceof MigrationRefused)) throw e;
    io.err(e.message);
    return 1;
  }
}

async function seedCommand(pool: Pool, io: OpsIo): Promise<number> {
  const r = await seedDevAccounts(pool, (pw) => bcrypt.hash(pw, BCRYPT_COST));
  io.out(
    `dev accounts seeded; users created: ${r.usersCreated.join(', ') || 'none'}; members created: ${r.membersCreated.join(', ') || 'none'}`,
  );
  return 0;
}

export async function runOps(args: readonly string[], io: OpsIo): Promise<number> {
  const [group, command, arg] = args;
  let config: AppConfig;
  try {
    config = loadConfig({ ...(io.env ? { env: io.env } : {}), ...(io.configDir ? { configDir: io.configDir } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(e.message);
      return 2;
    }
    throw e;
  }

  if (group === 'db' && (command === 'migrate' || command === 'seed')) {
    const ds = datasourceOf(config, io);
    if (ds === null) return 2;
    if (command === 'seed' && config.profile === 'prod') {
      io.err('db seed adds the dev accounts and is refused in prod');
      return 2;
    }
    const pool = createMySqlPool(ds, { connectionLimit: 2 });
    try {
      return command === 'migrate' ? await migrateCommand(pool, io) : await seedCommand(pool, io);
    } finally {
      await pool.end();
    }
  }

  if (group === 'sessions' && command === 'resync' && arg !== undefined && arg !== '') {
    if (!storeBackendOf(config).shared) {
      io.err('svc.store=memory: sessions live inside the server process; resync needs the shared store (svc.store=redis)');
      return 2;
    }
    const infra = createInfrastructure(config, { log: silentLogger, sessionReaders: 'tools' });
    try {
      const container = createContainer(config, infra, 'ops', {
        directory: infra.directories.admins,
        accounts: infra.directories.adminAccounts,
        rsa: new NoRsaDecryptor(),
      });
      if (!container.isBound(TOKENS.AdminDirectory)) {
        io.err(`no user directory is configured for svc.directory=${config.directory}`);
        return 2;
      }
      const r = await container.get(ResyncUserSessions).execute({ userId: arg });
      const what = r.action === 'updated' ? 'updated' : r.userFound ? 'ended (user disabled)' : 'ended (no such user)';
      io.out(`user ${arg}: ${r.sessions} live admin session(s) ${what}`);
      return 0;
    } finally {
      await infra.close();
    }
  }

  io.err(USAGE);
  return 2;
}

if (require.main === module) {
  runOps(process.argv.slice(2), { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) })
    .then((code) => process.exit(code))
    .catch((e: unknown) => {
      process.stderr.write(`failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
