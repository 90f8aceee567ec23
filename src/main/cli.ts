/**
 * Composition root of the command-line tool (`npm run cli -- <command>`, package bin `authguard`):
 * the same application layer as the servers, on the configured directory and store. The
 * configuration and the store are only loaded for the commands that need them (users, sessions);
 * keys, password and sign work without any configuration.
 */
import 'reflect-metadata';
import pino from 'pino';
import { DomainError } from '../domain/errors';
import { EndSession, ListSessions } from '../application/auth/session-use-cases';
import { CreateUser } from '../application/users/users';
import { IssueTokens } from '../application/auth/login';
import { ResyncUserSessions } from '../application/users/resync-user-sessions';
import type { UserDirectory } from '../application/ports/user-directory';
import { PooledBcryptHasher } from '../adapters/crypto/bcrypt-hasher';
import { NoRsaDecryptor } from '../adapters/crypto/rsa';
import { CryptoWorkerPool } from '../adapters/crypto/worker-pool';
import { YamlFileUserDirectory } from '../adapters/directory/yaml-file-user-directory';
import { CliFailure, processIo, UsageError } from '../adapters/cli/io';
import { runCli, type CliDeps } from '../adapters/cli/program';
import { createPinoLogger } from '../adapters/logging/pino-logger';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { authSettingsOf, createBaseContainer } from './container';
import { createSqlDirectories } from './directories';
import { createInfrastructure, type Infrastructure } from './infrastructure';


function loadCliConfig(): AppConfig {
  try {
    // One worker thread is plenty for one command.
    return loadConfig({ overrides: { 'svc.crypto.worker-threads': 1 } });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliFailure(`invalid configuration: ${e.problems.join('; ')}`);
    throw e;
  }
}

/** Domain refusals as CLI outcomes: invalid input is a usage error (2), the rest a failure (1). */
function translate(e: unknown): never {
  if (e instanceof DomainError) {
    const details = (e.extras.errors ?? []).map((f) => `${f.pointer.replace(/^\//, '')} ${f.detail}`).join('; ');
    const text = details === '' ? e.message : `${e.message.replace(/\.$/, '')}: ${details}`;
    throw e.reason === 'validation-failed' ? new UsageError(text) : new CliFailure(text);
  }
  throw e;
}

export function cliDeps(): CliDeps {
  let pool: CryptoWorkerPool | undefined;
  let infra: Infrastructure | undefined;
  let config: AppConfig | undefined;
  const hasher = () => new PooledBcryptHasher((pool ??= new CryptoWorkerPool(1)));
  const cfg = () => (config ??= loadCliConfig());
  // Warnings only (e.g. Redis connection errors), on stderr: stdout is the command's output.
  const log = () => createPinoLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });
  const container = () => {
    const c = cfg();
    if (c.store !== 'redis') {
      throw new CliFailure('sessions live inside the server process with svc.store=memory; the CLI needs svc.store=redis (SVC_STORE=redis SVC_REDIS_URL=...)');
    }
    infra ??= createInfrastructure(c, { log: log() });
    return createBaseContainer(c, infra, 'cli');
  };
  return {
    hashPassword: (password, cost) => hasher().hash(password, cost),
    async addUser(input) {
      const c = cfg();
      let directory: UserDirectory;
      let where: string;
      let closeDirectory = async (): Promise<void> => undefined;
      if (c.directory === 'sql') {
        // svc.directory=sql: the user goes into sys_user (+ sys_user_role), where the servers read it at once.
        const dirs = createSqlDirectories(c, log());
        directory = dirs.admins;
        where = 'the SQL directory (sys_user)';
        closeDirectory = () => dirs.close();
      } else {
        if (c.usersFile === '') throw new CliFailure('no user directory is configured: set svc.users-file (SVC_USERS_FILE)');
        directory = new YamlFileUserDirectory(c.usersFile);
        where = c.usersFile;
      }
      // `users add` takes a plain password: nothing is ever decrypted.
      const create = new CreateUser(directory, hasher(), new NoRsaDecryptor(), authSettingsOf(c));
      try {
        const user = await create.execute({ username: input.username, password: input.password, encrypted: false, nickname: input.nickname, roles: input.roles });
        return { user, where };
      } catch (e) {
        return translate(e);
      } finally {
        await closeDirectory();
      }
    },
    async listSessions(type, userId) {
      return container().get(ListSessions).execute({ loginType: type, userId });
    },
    async kickoutToken(type, tokenId) {
      try {
        await container().get(EndSession).execute({ loginType: type, tokenId, kick: true });
        return true;
      } catch (e) {
        if (e instanceof DomainError && e.reason === 'not-found') return false;
        throw e;
      }
    },
    async revokeRefreshTokens(type, userId) {
      await container().get(IssueTokens).registry.revokeAllOfUser(type, userId);
    },
    async resync(userId) {
      const c = container();
      if (!c.isBound(ResyncUserSessions)) throw new CliFailure(`no user directory is configured for svc.directory=${cfg().directory}`);
      return c.get(ResyncUserSessions).execute({ userId });
    },
    async close() {
      await pool?.close();
      await infra?.close();
    },
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
