/** The commands on accounts and live sessions: `users add|reset-mfa`, `sessions list|kickout|resync`. */
import { TOKEN_ID_PATTERN } from '../../application/session/session-token';
import { DEVICE_TYPE_PATTERN } from '../../domain/device-type';
import { USERNAME_PATTERN } from '../../domain/password';
import { MAX_PAGE_SIZE } from '../../application/auth/list-sessions';
import { intOption, loginType, parse, password, required, str } from './args';
import type { CliDeps } from './deps';
import { CliFailure, UsageError, type CliIo } from './io';

export async function usersCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'reset-mfa') return resetMfaCommand(io, rest, deps);
  if (sub !== 'add')
    throw new UsageError(sub === undefined ? 'users: expected "add" or "reset-mfa"' : `users: unknown subcommand "${sub}"`);
  const { values } = parse(
    rest,
    { username: { type: 'string' }, roles: { type: 'string' }, nickname: { type: 'string' }, password: { type: 'string' } },
    0,
  );
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

/** `users reset-mfa <admin|web> <userId>`: the operator's `DELETE /system/user/{id}/mfa` (members too). */
async function resetMfaCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const { positionals } = parse(argv, {}, 2);
  const type = loginType(positionals[0]);
  const userId = positionals[1];
  if (userId === undefined || userId === '') throw new UsageError('users reset-mfa: the user id is required');
  const r = await (await deps()).resetMfa(type, userId);
  const totp = r.totpRemoved ? 'the TOTP factor and its recovery codes' : 'no TOTP factor';
  io.out(
    `${type} user "${r.username}" (id ${userId}): removed ${totp} and ${r.passkeysRemoved} passkey(s); ` +
      `${r.sessionsEnded} live session(s) ended, earlier refresh tokens refused`,
  );
}

export async function sessionsCommand(io: CliIo, argv: readonly string[], deps: () => Promise<CliDeps>): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'list') {
    const { values, positionals } = parse(rest, { json: { type: 'boolean' }, page: { type: 'string' }, size: { type: 'string' } }, 2);
    const type = loginType(positionals[0]);
    const userId = positionals[1];
    if (userId === undefined || userId === '') throw new UsageError('sessions list: the user id is required');
    const page = intOption(str(values, 'page'), 'page', (n) => n >= 1 && n <= 10_000, 'a page number from 1') ?? 1;
    const size = intOption(str(values, 'size'), 'size', (n) => n >= 1 && n <= MAX_PAGE_SIZE, `1 to ${MAX_PAGE_SIZE}`) ?? MAX_PAGE_SIZE;
    const found = await (await deps()).listSessionPage(type, userId, page, size);
    const sessions = found.list;
    // The page's place among all (stderr: the output stays what it was, the rows or their JSON array).
    if (found.total > sessions.length) io.err(`sessions ${(page - 1) * size + 1}-${(page - 1) * size + sessions.length} of ${found.total}`);
    if (values.json === true) {
      io.out(JSON.stringify(sessions, null, 2));
      return;
    }
    if (sessions.length === 0) {
      io.err(`no live ${type} sessions for user ${userId}`);
      return;
    }
    io.out(['TOKEN ID', 'LOGIN TIME', 'LAST ACTIVE', 'EXPIRES', 'IP', 'DEVICE', 'USER AGENT'].join('\t'));
    for (const s of sessions)
      io.out(
        [s.tokenId, s.loginTime, s.lastActiveTime, s.expires ?? 'never', s.ipaddr || '-', s.deviceType, s.userAgent || '-'].join('\t'),
      );
    return;
  }
  if (sub === 'kickout') return kickout(rest, io, deps);
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

/** `sessions kickout <type> <userId|tokenId> [--device-type <type>]`. */
async function kickout(rest: readonly string[], io: CliIo, deps: () => Promise<CliDeps>): Promise<void> {
  const { values, positionals } = parse(rest, { 'device-type': { type: 'string' } }, 2);
  const type = loginType(positionals[0]);
  const id = positionals[1];
  if (id === undefined || id === '') throw new UsageError('sessions kickout: a user id or token id is required');
  const deviceType = str(values, 'device-type');
  if (deviceType !== undefined && !DEVICE_TYPE_PATTERN.test(deviceType))
    throw new UsageError('sessions kickout: --device-type must be 1-32 characters of A-Z a-z 0-9 _ -');
  const d = await deps();
  // A token id is 32 lowercase hex digits (16 for a session of an earlier release); anything else (or no such token) is a user id.
  if (deviceType === undefined && TOKEN_ID_PATTERN.test(id) && (await d.kickoutToken(type, id))) {
    io.out(`kicked out 1 ${type} session (token id ${id})`);
    return;
  }
  // A user id: every refresh token of the user (of the device type) issued so far is refused first
  // (devices whose access token lapsed are not listed, but their refresh tokens must not bring them back).
  await d.revokeRefreshTokens(type, id, deviceType);
  const sessions = (await d.listSessions(type, id)).filter((s) => deviceType === undefined || s.deviceType === deviceType);
  let n = 0;
  for (const s of sessions) if (await d.kickoutToken(type, s.tokenId)) n++;
  const of = deviceType === undefined ? '' : ` ${deviceType}`;
  if (n === 0)
    throw new CliFailure(
      `no live${of} ${type} session with token id or user id "${id}" (earlier${of} refresh tokens of a user with that id are refused)`,
    );
  io.out(`kicked out ${n}${of} ${type} session(s) of user ${id}; their earlier refresh tokens are refused`);
}
