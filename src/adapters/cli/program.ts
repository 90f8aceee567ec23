/**
 * The command-line adapter: parses `authguard <command> [options]`, calls the application layer
 * through `CliDeps` (wired by the composition root src/main/cli.ts) and prints the result.
 * Exit status: 0 done, 1 the command failed at run time, 2 bad arguments (one line on stderr).
 * Secrets are printed only by the commands whose output they are (a hash, a ciphertext, headers).
 */
import { keysGenerate, passwordCommand, signCommand } from './crypto-commands';
import { sessionsCommand, usersCommand } from './account-commands';
import { auditCommand } from './audit-commands';
import type { CliDeps } from './deps';
import { UsageError, type CliIo } from './io';

export { LOGIN_TYPES, type CliDeps, type CliLoginType } from './deps';

export const USAGE = `usage: authguard <command> [options]      (npm run cli -- <command> [options])

commands:
  keys generate --out <dir> [--bits 2048|3072] [--force]
      write an RSA key pair: <dir>/rsa-private.pem (PKCS#8, mode 0600; the value of
      svc.rsa-private-key) and <dir>/rsa-public.pem (SPKI)
  password hash [--cost 10..15] [--password <pw>]
      print the BCrypt hash of a password (for svc.users-file); default cost 10
  password encrypt --public-key <file|PEM> [--padding oaep-sha256|pkcs1] [--password <pw>]
      print the base64 RSA ciphertext a client sends as the login password
  sign --app-key <key> --secret <secret> (--body <text> | --body-file <file>)
       [--timestamp <ms>] [--nonce <nonce>] [--scheme v1|rfc9421 --method <M> --url <absolute URL>]
      print the signing headers to send, one per line: v1 (default) X-App-Key, X-Timestamp,
      X-Nonce, X-Sign; rfc9421 Content-Digest (with a body), Signature-Input, Signature
  users add --username <name> --roles <role,...> [--nickname <name>] [--password <pw>]
      add a user to the configured directory (svc.users-file, or sys_user with svc.directory=sql)
  users reset-mfa <admin|web> <userId>
      remove the user's second factors (TOTP, recovery codes, passkeys) and end its logins
      (svc.directory=sql, svc.store=redis): for an owner who lost them, or after a takeover
  sessions list <admin|web> <userId> [--page <n>] [--size <1-500>] [--json]
      the user's live sessions in the configured store (svc.store=redis), oldest first: a page (default the first 500)
  sessions kickout <admin|web> <userId|tokenId> [--device-type <type>]
      kick out one session (by token id) or every session of a user (only those of one device type)
  sessions resync <userId>
      after direct database edits: update (or end, if disabled) the user's live admin sessions
  audit verify [admin|web] [--log login|operation] [--from <time>] [--to <time>]
      walk a stored audit log (svc.store=redis; default: the admin login log) and check the
      hash chain of its events: exit 0 intact, 1 with the first broken event (times: ms or ISO 8601)
  help
      this text

Passwords are read from stdin when it is not a terminal, else prompted for without echo.
--password also works, for scripts, but leaves the password in shell history and the process list.
Configuration (users, sessions) comes from config/ and the environment, as for the servers.
Exit status: 0 ok, 1 the command failed, 2 bad arguments.`;

/** Runs one command line; returns the exit status. `deps` is created on first use and closed at the end. */
export async function runCli(argv: readonly string[], io: CliIo, makeDeps: () => Promise<CliDeps>): Promise<number> {
  let deps: Promise<CliDeps> | undefined;
  const lazy = (): Promise<CliDeps> => (deps ??= makeDeps());
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.err(USAGE);
        return 2;
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return 0;
      case 'keys':
        if (rest[0] !== 'generate')
          throw new UsageError(rest[0] === undefined ? 'keys: expected "generate"' : `keys: unknown subcommand "${rest[0]}"`);
        await keysGenerate(io, rest.slice(1));
        return 0;
      case 'password':
        await passwordCommand(io, rest, lazy);
        return 0;
      case 'sign':
        await signCommand(io, rest);
        return 0;
      case 'users':
        await usersCommand(io, rest, lazy);
        return 0;
      case 'sessions':
        await sessionsCommand(io, rest, lazy);
        return 0;
      case 'audit':
        await auditCommand(io, rest, lazy);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}" (try: authguard help)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`authguard: ${e.message}`);
      return 2;
    }
    io.err(`authguard: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    return 1;
  } finally {
    if (deps) await (await deps.catch(() => null))?.close().catch(() => undefined);
  }
}
