/**
 * Filling the store with sessions written as a real login writes them, without the login's HTTP,
 * BCrypt and RSA (which a million logins could not afford here):
 *
 * - `fillSessions`: SessionManager.login of the admin app, on its real store (SessionStore.create
 *   with the record the login builds: the directory user's principal, the client's IP and
 *   User-Agent with its parsed names, the `rtFamily` attribute and the family's end as IssueTokens
 *   gives them), no refresh token. Each session is its own user's (`filler<i>`, principal copied
 *   from the viewer account), except the first 20, which are the viewer's own (the username filter
 *   of the online list finds them). Session i's IP is 10.x.y.z from i; every 20,000th is RARE_IP.
 * - `fillUser`: IssueTokens of an app (what a login calls after the password check): one
 *   account's sessions, each with its refresh token and family, as `count` real logins leave them.
 *
 * Both run CONCURRENCY calls at a time (the Redis client pipelines what is in flight).
 */
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import type { DirectoryUser } from '../../src/application/ports/user-directory';
import { RefreshTokenRegistry } from '../../src/application/session/refresh-token-registry';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import type { LoginType } from '../../src/domain/login-type';
import type { ClientInfo } from '../../src/domain/session';
import type { BuiltApp } from '../../src/main/operations';
import { CHROME } from './http';

const CONCURRENCY = 256;
export const VIEWER_SESSIONS = 20;
export const RARE_IP = '192.0.2.77';

async function inParallel(from: number, to: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) await one(next++);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.max(1, to - from)) }, worker));
}

function clientOf(built: BuiltApp, ip: string): ClientInfo {
  const names = built.container.get(TOKENS.UserAgentParser).parse(CHROME);
  return { ip, userAgent: CHROME, os: names.os, browser: names.browser, deviceType: names.deviceType };
}

const fillerIp = (i: number) => (i % 20_000 === 7 ? RARE_IP : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);

/** Sessions `from`..`to`-1 of the filler, through the admin app's SessionManager. */
export async function fillSessions(admin: BuiltApp, from: number, to: number): Promise<void> {
  const viewer = (await admin.container.get(TOKENS.AdminDirectory).findByUsername('viewer')) as DirectoryUser;
  const manager = admin.container.get(SessionManagers).get('admin');
  const registry = admin.container.get(RefreshTokenRegistry);
  const base = clientOf(admin, '');
  await inParallel(from, to, async (i) => {
    const user = i < VIEWER_SESSIONS ? viewer : { ...viewer, id: `f${i}`, username: `filler${i}`, nickname: `filler${i}` };
    const family = registry.newFamily();
    await manager.login(principalOf(user), { ...base, ip: fillerIp(i) }, { rtFamily: family }, registry.endOf(family));
  });
}

/** `count` sessions of one account, each with its refresh token (IssueTokens, as a login ends); their access tokens. */
export async function fillUser(app: BuiltApp, loginType: LoginType, username: string, count: number): Promise<string[]> {
  const directory = app.container.get(loginType === 'admin' ? TOKENS.AdminDirectory : TOKENS.MemberDirectory);
  const user = await directory.findByUsername(username);
  if (user === null) throw new Error(`no ${loginType} account ${username}`);
  const issue = app.container.get(IssueTokens);
  const tokens: string[] = [];
  await inParallel(0, count, async (i) => {
    const pair = await issue.execute({
      loginType,
      principal: principalOf(user),
      client: { ip: `172.16.${(i >> 8) & 255}.${i & 255}`, userAgent: CHROME },
    });
    tokens.push(pair.accessToken);
  });
  return tokens;
}
