/**
 * Composition root of the command-line tool (`npm run cli -- <command>`, package bin `authguard`):
 * the same application layer as the servers, on the configured directory and store. The
 * configuration and the store are only loaded for the commands that need them (users, sessions);
 * keys, password and sign work without any configuration.
 */
import 'reflect-metadata';
import type { Container } from 'inversify';
import pino from 'pino';
import { DomainError } from '../domain/errors';
import { EndSession } from '../application/auth/end-session';
import { ListSessions } from '../application/auth/list-sessions';
import { CreateUser } from '../application/users/create-user';
import { RefreshTokenRegistry } from '../application/session/refresh-token-registry';
import { TOKENS } from '../application/tokens';
import { ResetUserMfa } from '../application/users/reset-user-mfa';
import { ResyncUserSessions } from '../application/users/resync-user-sessions';
import { PooledBcryptHasher } from '../adapters/crypto/bcrypt-hasher';
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { CryptoWorkerPool } from '../adapters/crypto/worker-pool';
import { YamlFileUserDirectory } from '../adapters/directory/yaml-file-user-directory';
import { InMemoryPasskeyStore } from '../adapters/directory/in-memory-passkey-store';
import { ACCOUNT_WRITES, MENU_WRITES, readOnlyDirectory, ROLE_WRITES } from '../adapters/directory/read-only-directory';
import { InMemoryUserDirectory } from '../adapters/directory/in-memory-user-directory';
import type { MenuCatalogue } from '../application/ports/menu-catalogue';
import type { RoleAdministration } from '../application/ports/role-administration';
import { CliFailure, processIo, UsageError } from '../adapters/cli/io';
import { runCli, type CliDeps } from '../adapters/cli/program';
import { createPinoLogger } from '../adapters/logging/pino-logger';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { InMemoryTotpStore } from '../adapters/memory/totp-store';
import { createContainer } from './container';
import { createSqlDirectories, type Directories } from './directories';
import { createInfrastructure, type Infrastructure } from './infrastructure';
import { IN_PROCESS_STORE, storeBackendOf } from './store-backends';

function loadCliConfig(): AppConfig {
  try {
    // One worker thread is plenty for one command.
    return loadConfig({ overrides: { 'svc.crypto.worker-threads': 1 } });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliFailure(`invalid configuration: ${e.problems.join('; ')}`);
    throw e;
  }
}

/** Domain refusals as CLI outcomes: invalid input (a weak password included) is a usage error (2), the rest a failure (1). */
function translate(e: unknown): never {
  if (e instanceof DomainError) {
    const details = (e.extras.errors ?? []).map((f) => `${f.pointer.replace(/^\//, '')} ${f.detail}`).join('; ');
    const text = details === '' ? e.message : `${e.message.replace(/\.$/, '')}: ${details}`;
    throw e.reason === 'validation-failed' || e.reason === 'password-policy' ? new UsageError(text) : new CliFailure(text);
  }
  throw e;
}

/**
 * What the commands share, created on first use: the configuration, one infrastructure (the
 * configured store, or the memory store for `users add`, which touches no session) and the
 * container built on it, exactly as the servers build theirs.
 */
class CliContext {
  private config: AppConfig | undefined;
  private pool: CryptoWorkerPool | undefined;
  private infra: Infrastructure | undefined;
  private built: Container | undefined;
  // Warnings only (e.g. Redis connection errors), on stderr: stdout is the command's output.
  private readonly log = createPinoLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });

  cfg(): AppConfig {
    return (this.config ??= loadCliConfig());
  }

  /** `password hash` needs no configuration: BCrypt on a one-thread pool of its own. */
  hasher(): PooledBcryptHasher {
    return new PooledBcryptHasher((this.pool ??= new CryptoWorkerPool(1)));
  }

  /** The container on the configured store, for the session commands. */
  container(): Container {
    const c = this.cfg();
    if (!storeBackendOf(c).shared) {
      throw new CliFailure(
        'sessions and the audit trail live inside the server process with svc.store=memory; the CLI needs svc.store=redis ' +
          '(SVC_STORE=redis SVC_REDIS_URL=...)',
      );
    }
    this.infra ??= createInfrastructure(c, { log: this.log, sessionReaders: 'tools' });
    const { admins, adminAccounts } = this.infra.directories;
    return (this.built ??= createContainer(c, this.infra, 'cli', {
      directory: admins,
      accounts: adminAccounts,
      rsa: new NoRsaDecryptor(),
    }));
  }

  /**
   * `users add` goes to the configured admin directory: sys_user (+ sys_user_role) with
   * svc.directory=sql, where the servers see it at once; else the YAML users file (comments kept;
   * the admin app loads it at its next start). Passwords are plain: nothing is decrypted.
   */
  async addUser(input: Parameters<CliDeps['addUser']>[0]): ReturnType<CliDeps['addUser']> {
    const c = this.cfg();
    let directories: Directories;
    let where: string;
    if (c.directory === 'sql') {
      directories = createSqlDirectories(c, this.log);
      where = 'the SQL directory (sys_user)';
    } else {
      if (c.usersFile === '') throw new CliFailure('no user directory is configured: set svc.users-file (SVC_USERS_FILE)');
      const file = new YamlFileUserDirectory(c.usersFile);
      const access = InMemoryUserDirectory.fromFile(c.usersFile).access;
      // `users add` is the one change the CLI writes to the file: account changes are refused (edit the file).
      const accounts = readOnlyDirectory(file.snapshotAccounts(), ACCOUNT_WRITES);
      directories = {
        admins: file,
        members: file,
        administration: null,
        passkeys: new InMemoryPasskeyStore(),
        adminAccounts: accounts,
        memberAccounts: accounts,
        totp: new InMemoryTotpStore(),
        menus: readOnlyDirectory<MenuCatalogue>(access, MENU_WRITES),
        roles: readOnlyDirectory<RoleAdministration>(access, ROLE_WRITES),
        close: async () => undefined,
      };
      where = c.usersFile;
    }
    const infra = createInfrastructure({ ...c, store: IN_PROCESS_STORE }, { log: this.log, directories });
    try {
      const container = createContainer(c, infra, 'cli', {
        directory: directories.admins,
        accounts: directories.adminAccounts,
        rsa: new NoRsaDecryptor(),
      });
      const create = container.get(CreateUser);
      const user = await create.execute({
        username: input.username,
        password: input.password,
        encrypted: false,
        nickname: input.nickname,
        roles: input.roles,
        actor: null,
      });
      return { user, where };
    } catch (e) {
      return translate(e);
    } finally {
      await infra.close();
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
    await this.infra?.close();
  }
}

export function cliDeps(): CliDeps {
  const ctx = new CliContext();
  return {
    hashPassword: (password, cost) => ctx.hasher().hash(password, cost),
    addUser: (input) => ctx.addUser(input),
    listSessions: (type, userId) => ctx.container().get(ListSessions).execute({ loginType: type, userId }),
    listSessionPage: (type, userId, page, size) => ctx.container().get(ListSessions).page({ loginType: type, userId, page, size }),
    async kickoutToken(type, tokenId) {
      try {
        await ctx.container().get(EndSession).execute({ loginType: type, tokenId, kick: true });
        return true;
      } catch (e) {
        if (e instanceof DomainError && e.reason === 'not-found') return false;
        throw e;
      }
    },
    revokeRefreshTokens: async (type, userId, deviceType) => {
      const registry = ctx.container().get(RefreshTokenRegistry);
      if (deviceType === undefined) await registry.revokeAllOfUser(type, userId);
      else await registry.revokeDeviceOfUser(type, userId, deviceType);
    },
    async resync(userId) {
      const c = ctx.container();
      if (!c.isBound(TOKENS.AdminDirectory))
        throw new CliFailure(`no user directory is configured for svc.directory=${ctx.cfg().directory}`);
      return c.get(ResyncUserSessions).execute({ userId });
    },
    async resetMfa(type, userId) {
      if (ctx.cfg().directory !== 'sql')
        throw new CliFailure(
          `svc.directory=${ctx.cfg().directory} keeps second factors inside the server process (prod enrols none there): ` +
            'reset them with DELETE /system/user/{id}/mfa on the admin app',
        );
      try {
        return await ctx.container().get(ResetUserMfa).byOperator(type, userId);
      } catch (e) {
        return translate(e);
      }
    },
    verifyAuditChain: (type, log, range) => ctx.container().get(TOKENS.AuditStore).verifyChain(type, log, range),
    close: () => ctx.close(),
  };
}

/** Runs one command line on this process's terminal; resolves to the exit status. */
export function main(argv: readonly string[]): Promise<number> {
  return runCli(argv, processIo(), async () => cliDeps());
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
