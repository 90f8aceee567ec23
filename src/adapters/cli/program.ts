/**
 * The command-line adapter: parses `authguard <command> [options]`, calls the application layer
 * through `CliDeps` (wired by the composition root src/main/cli.ts) and prints the result.
 * Exit status: 0 done, 1 the command failed at run time, 2 bad arguments (one line on stderr).
 * Secrets are printed only by the commands whose output they are (a hash, a ciphertext, headers).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NONCE_PATTERN, parseTimestamp, signingPrefix } from '../../domain/signing';
import type { OnlineSession } from '../../application/auth/list-sessions';
import { USERNAME_PATTERN } from '../../domain/password';
import { type UserView } from '../../application/users/user-view';
import { encryptForLogin, generateRsaKeyPairPem, RSA_KEY_SIZES } from '../crypto/rsa';
import { CliFailure, UsageError, type CliIo } from './io';

export const LOGIN_TYPES = ['admin', 'web'] as const;
export type CliLoginType = (typeof LOGIN_TYPES)[number];

/** What the commands need from the application layer (built lazily: only for commands that use them). */
export interface CliDeps {
  hashPassword(password: string, cost: number): Promise<string>;
  /** Adds a user to the configured directory; returns it and where it went. */
  addUser(input: { username: string; password: string; nickname?: string; roles: string[] }): Promise<{ user: UserView; where: string }>;
  listSessions(type: CliLoginType, userId: string): Promise<OnlineSession[]>;
  /** Ends (kicks out) the session with this token id; false when there is none. */
  kickoutToken(type: CliLoginType, tokenId: string): Promise<boolean>;
  /** Refuses every refresh token of the user issued before now (lapsed devices included). */
  revokeRefreshTokens(type: CliLoginType, userId: string): Promise<void>;
  /** Brings the user's live admin sessions in line with the directory (after direct database edits). */
  resync(userId: string): Promise<{ sessions: number; action: 'updated' | 'ended'; userFound: boolean }>;
  close(): Promise<void>;
}

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
       [--timestamp <ms>] [--nonce <nonce>]
      print the four signing headers (X-App-Key, X-Timestamp, X-Nonce, X-Sign), one per line
  users add --username <name> --roles <role,...> [--nickname <name>] [--password <pw>]
      add a user to the configured directory (svc.users-file, or sys_user with svc.directory=sql)
  sessions list <admin|web> <userId> [--json]
      the user's live sessions in the configured store (svc.store=redis)
  sessions kickout <admin|web> <userId|tokenId>
      kick out one session (by token id) or every session of a user
  sessions resync <userId>
      after direct database edits: update (or end, if disabled) the user's live admin sessions
  help
      this text

Passwords are read from stdin when it is not a terminal, else prompted for without echo.
--password also works, for scripts, but leaves the password in shell history and the process list.
Configuration (users, sessions) comes from config/ and the environment, as for the servers.
Exit status: 0 ok, 1 the command failed, 2 bad arguments.`;

type Opts = Record<string, { type: 'string' | 'boolean' }>;

/** node:util parseArgs, with its errors turned into one-line usage errors. */
function parse(argv: readonly string[], options: Opts, positionals: number) {
  // A PEM value starts with dashes, which parseArgs reads as an option: pass it as --name=value.
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const next = argv[i + 1];
    if (a.startsWith('--') && options[a.slice(2)]?.type === 'string' && next?.startsWith('-----BEGIN')) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]?.replace(/\. To specify a positional argument.*$/, '') ?? 'bad arguments');
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument "${parsed.positionals[positionals] ?? ''}"`);
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function str(values: Record<string, string | boolean | undefined>, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function intOption(text: string | undefined, name: string, allowed: (n: number) => boolean, expected: string): number | undefined {
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!allowed(n)) throw new UsageError(`--${name} must be ${expected}, got "${text}"`);
  return n;
}

function loginType(text: string | undefined): CliLoginType {
  if (text === undefined) throw new UsageError('the login type (admin or web) is required');
  if (!(LOGIN_TYPES as readonly string[]).includes(text)) throw new UsageError(`login type must be admin or web, got "${text}"`);
  return text as CliLoginType;
}

async function password(io: CliIo, values: Record<string, string | boolean | undefined>, confirm: boolean): Promise<string> {
  const given = str(values, 'password');
  if (given !== undefined) {
    io.err('warning: --password leaves the password in shell history and the process list; prefer stdin or the prompt');
    return given;
  }
  const pw = await io.readSecret('Password', confirm);
  if (pw === '') throw new UsageError('the password is empty');
  return pw;
}

async function keysGenerate(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(argv, { out: { type: 'string' }, bits: { type: 'string' }, force: { type: 'boolean' } }, 0);
  const out = required(values, 'out');
  const bits = (intOption(str(values, 'bits'), 'bits', (n) => (RSA_KEY_SIZES as readonly number[]).includes(n), '2048 or 3072') ?? 2048) as 2048 | 3072;
  const privateFile = path.resolve(out, 'rsa-private.pem');
  const publicFile = path.resolve(out, 'rsa-public.pem');
  if (values.force !== true) {
    for (const f of [privateFile, publicFile]) if (existsSync(f)) throw new CliFailure(`${f} exists; use --force to overwrite`);
  }
  mkdirSync(path.resolve(out), { recursive: true, mode: 0o700 });
  const { privatePem, publicPem } = generateRsaKeyPairPem(bits);
  writeFileSync(privateFile, privatePem, { mode: 0o600 });
  chmodSync(privateFile, 0o600); // also when the file already existed with another mode
  writeFileSync(publicFile, publicPem, { mode: 0o644 });
  io.out(`private key: ${privateFile} (RSA ${bits}, PKCS#8, mode 0600)`);
  io.out(`public key:  ${publicFile} (SPKI)`);
  io.out(`use it with: SVC_RSA_PRIVATE_KEY="$(cat ${privateFile})"`);
}

async function passwordCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'hash') {
    const { values } = parse(rest, { cost: { type: 'string' }, password: { type: 'string' } }, 0);
    const cost = intOption(str(values, 'cost'), 'cost', (n) => n >= 10 && n <= 15, 'an integer from 10 to 15') ?? 10;
    const pw = await password(io, values, true);
    if (Buffer.byteLength(pw, 'utf8') > 72) throw new UsageError('the password is longer than 72 bytes in UTF-8 (BCrypt reads no further)');
    io.out(await (await deps()).hashPassword(pw, cost));
    return;
  }
  if (sub === 'encrypt') {
    const { values } = parse(rest, { 'public-key': { type: 'string' }, padding: { type: 'string' }, password: { type: 'string' } }, 0);
    const keyArg = required(values, 'public-key');
    const padding = str(values, 'padding') ?? 'oaep-sha256';
    if (padding !== 'oaep-sha256' && padding !== 'pkcs1') throw new UsageError(`--padding must be oaep-sha256 or pkcs1, got "${padding}"`);
    let pem = keyArg;
    if (!keyArg.includes('-----BEGIN')) {
      if (!existsSync(keyArg)) throw new UsageError(`--public-key: no such file "${keyArg}" (give a file or the PEM text)`);
      pem = readFileSync(keyArg, 'utf8');
    }
    const pw = await password(io, values, false);
    try {
      io.out(encryptForLogin(pem, padding, pw));
    } catch (e) {
      throw new UsageError(`--public-key: not a usable RSA key (${(e as Error).message.split('\n')[0]})`);
    }
    return;
  }
  throw new UsageError(sub === undefined ? 'password: expected "hash" or "encrypt"' : `password: unknown subcommand "${sub}"`);
}

async function signCommand(io: CliIo, argv: readonly string[]): Promise<void> {
  const { values } = parse(
    argv,
    { 'app-key': { type: 'string' }, secret: { type: 'string' }, body: { type: 'string' }, 'body-file': { type: 'string' }, timestamp: { type: 'string' }, nonce: { type: 'string' } },
    0,
  );
  const appKey = required(values, 'app-key');
  const secret = required(values, 'secret');
  const bodyText = str(values, 'body');
  const bodyFile = str(values, 'body-file');
  if ((bodyText === undefined) === (bodyFile === undefined)) throw new UsageError('give exactly one of --body <text> (may be "") or --body-file <file>');
  let body: Buffer;
  if (bodyFile !== undefined) {
    if (!existsSync(bodyFile)) throw new UsageError(`--body-file: no such file "${bodyFile}"`);
    body = readFileSync(bodyFile);
  } else body = Buffer.from(bodyText ?? '', 'utf8');
  const timestamp = str(values, 'timestamp') ?? String(Date.now());
  if (parseTimestamp(timestamp) === null) throw new UsageError(`--timestamp must be milliseconds since the epoch, got "${timestamp}"`);
  const nonce = str(values, 'nonce') ?? randomBytes(16).toString('hex');
  if (!NONCE_PATTERN.test(nonce)) throw new UsageError('--nonce must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-"');
  const sign = createHmac('sha256', secret).update(signingPrefix(appKey, timestamp, nonce), 'utf8').update(body).digest('hex');
  io.out(`X-App-Key: ${appKey}`);
  io.out(`X-Timestamp: ${timestamp}`);
  io.out(`X-Nonce: ${nonce}`);
  io.out(`X-Sign: ${sign}`);
}

async function usersCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'add') throw new UsageError(sub === undefined ? 'users: expected "add"' : `users: unknown subcommand "${sub}"`);
  const { values } = parse(rest, { username: { type: 'string' }, roles: { type: 'string' }, nickname: { type: 'string' }, password: { type: 'string' } }, 0);
  const username = required(values, 'username');
  if (!USERNAME_PATTERN.test(username)) throw new UsageError('--username must be 3-32 characters of A-Z a-z 0-9 _ . -');
  const roles = required(values, 'roles')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  const nickname = str(values, 'nickname');
  const d = await deps();
  const pw = await password(io, values, true);
  const { user, where } = await d.addUser({ username, password: pw, roles, ...(nickname !== undefined ? { nickname } : {}) });
  io.out(`added user "${user.username}" (id ${user.userId}, roles ${user.roles.join(', ') || '-'}) to ${where}`);
}

async function sessionsCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' } }, 2);
    const type = loginType(positionals[0]);
    const userId = positionals[1];
    if (userId === undefined || userId === '') throw new UsageError('sessions list: the user id is required');
    const sessions = await (await deps()).listSessions(type, userId);
    if (values.json === true) {
      io.out(JSON.stringify(sessions, null, 2));
      return;
    }
    if (sessions.length === 0) {
      io.err(`no live ${type} sessions for user ${userId}`);
      return;
    }
    io.out(['TOKEN ID', 'LOGIN TIME', 'LAST ACTIVE', 'EXPIRES', 'IP', 'USER AGENT'].join('\t'));
    for (const s of sessions) io.out([s.tokenId, s.loginTime, s.lastActiveTime, s.expires ?? 'never', s.ipaddr || '-', s.userAgent || '-'].join('\t'));
    return;
  }
  if (sub === 'kickout') {
    const { positionals } = parse(rest, {}, 2);
    const type = loginType(positionals[0]);
    const id = positionals[1];
    if (id === undefined || id === '') throw new UsageError('sessions kickout: a user id or token id is required');
    const d = await deps();
    // A token id is 16 lowercase hex digits; anything else (or no such token) is a user id.
    if (/^[0-9a-f]{16}$/.test(id) && (await d.kickoutToken(type, id))) {
      io.out(`kicked out 1 ${type} session (token id ${id})`);
      return;
    }
    // A user id: every refresh token of the user issued so far is refused first (devices whose
    // access token lapsed are not listed, but their refresh tokens must not bring them back).
    await d.revokeRefreshTokens(type, id);
    const sessions = await d.listSessions(type, id);
    let n = 0;
    for (const s of sessions) if (await d.kickoutToken(type, s.tokenId)) n++;
    if (n === 0) throw new CliFailure(`no live ${type} session with token id or user id "${id}" (earlier refresh tokens of a user with that id are refused)`);
    io.out(`kicked out ${n} ${type} session(s) of user ${id}; their earlier refresh tokens are refused`);
    return;
  }
  if (sub === 'resync') {
    const { positionals } = parse(rest, {}, 1);
    const userId = positionals[0];
    if (userId === undefined || userId === '') throw new UsageError('sessions resync: the user id is required');
    const r = await (await deps()).resync(userId);
    const what = r.action === 'updated' ? 'updated' : r.userFound ? 'ended (user disabled)' : 'ended (no such user)';
    io.out(`user ${userId}: ${r.sessions} live admin session(s) ${what}`);
    return;
  }
  throw new UsageError(sub === undefined ? 'sessions: expected "list", "kickout" or "resync"' : `sessions: unknown subcommand "${sub}"`);
}

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
        if (rest[0] !== 'generate') throw new UsageError(rest[0] === undefined ? 'keys: expected "generate"' : `keys: unknown subcommand "${rest[0]}"`);
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
