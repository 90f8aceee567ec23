/**
 * What a session leaves in Redis after each way it can end, on its own key prefix (then removed),
 * with an app clock the bench can move (session.active-timeout 1800 s here, to have an idle end).
 * Each end is one real login (over HTTP, its own account, so its user-level keys are its own),
 * then the end, then a SCAN of the prefix:
 *
 *   logout        POST /auth/logout                     kickout     DELETE /monitor/online/:tokenId (operator)
 *   kick-all      POST /system/user/:id/kickout          replacement a login of the account on the is-concurrent=false app
 *   logout-all    web POST /user/logout-all             idle        clock + 30 min 1 s, GET /auth/me -> 401
 *   expiry        clock + 7 days 1 s, GET /auth/me       family revoked  a refresh, then the first refresh token presented
 *                 -> 401 (session.timeout)                              again after the reuse grace -> 401, family revoked
 *
 * The session's keys are the keys (not a login's rate-limit log nor the audit trail: keys.ts) that
 * appeared under the prefix since before the login. With no survivor, every one of them still
 * there after the end is "left". After a replacement the new session's keys are no leftovers: the
 * left ones are those naming the old session (its token hash or id, refresh token hashes, family)
 * and those the end created not naming the new one.
 * Redis expires keys by its own clock, not the app's: after an expiry end every key is still
 * there, so the figure that matters is how long each outlives the end (PTTL, against when the
 * session ended). `leftAfterDay`: keys living more than a day past the end (or forever).
 */
import { createHash } from 'node:crypto';
import { IssueTokens } from '../../src/application/auth/issue-tokens';
import { REUSE_GRACE_MS } from '../../src/application/session/refresh-token-registry';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken, tokenIdOf } from '../../src/application/session/session-token';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import type { LoginType } from '../../src/domain/login-type';
import { CHROME, Client, round, type Tokens } from './http';
import { countBySpace, dropPrefix, keysUnder, memoryUsage, sessionSide, ttls } from './keys';
import type { RedisDeployment } from './redis';
import { endAccount, PASSWORD, startStack, type Stack } from './stack';

const DAY = 86_400_000;
const IDLE_S = 1800;

/** The app's clock: the real one, moved by `offset` ms. */
class ShiftedClock {
  offset = 0;
  now = (): number => Date.now() + this.offset;
}

export interface EndFigure {
  readonly end: string;
  /** Session-side keys the login wrote. */
  readonly keysOfLogin: number;
  /** The session's keys still there right after the end. */
  readonly left: number;
  /** Of those, the ones that outlive the end by more than a day (or never expire). */
  readonly leftAfterDay: number;
  /** How long the longest-lived of them outlives the end (days); null when none is left; -1 for no expiry. */
  readonly longestDays: number | null;
  /**
   * Bytes (MEMORY USAGE, every session-side key under the prefix, shared index keys included, so an
   * index entry left behind counts) after the end minus before the login; after a replacement,
   * less what the login itself added (the survivor is a login like it).
   */
  readonly bytesLeft: number;
  readonly bySpace: Record<string, number>;
}

interface Ctx {
  readonly stack: Stack;
  readonly clock: ShiftedClock;
  readonly admin: Client;
  readonly web: Client;
  readonly replacing: Client;
  readonly operatorToken: string;
  readonly account: { id: string; username: string };
}

/** What an end reports: when the session ended (real timeline), identifiers of more tokens it used, the surviving session's. */
interface Ended {
  readonly endAt: number;
  readonly moreIds?: readonly string[];
  /** The session that lives on (a replacement's new one). */
  readonly survivor?: Tokens;
}

interface EndDef {
  readonly name: string;
  readonly loginType: LoginType;
  act(ctx: Ctx, t: Tokens, ip: () => string): Promise<Ended>;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const idsOf = (t: Tokens): string[] => [tokenIdOf(hashToken(t.accessToken)), sha256(t.refreshToken)];

/** Moves the app clock by `ms`, runs `fn` (which must see the session ended), and puts the clock back. */
async function later<T>(ctx: Ctx, ms: number, fn: () => Promise<T>): Promise<T> {
  ctx.clock.offset = ms;
  try {
    return await fn();
  } finally {
    ctx.clock.offset = 0;
  }
}

const ENDS: readonly EndDef[] = [
  {
    name: 'logout',
    loginType: 'admin',
    act: async (c, t) => (await c.admin.expect(200, 'POST', '/auth/logout', { token: t.accessToken }), { endAt: Date.now() }),
  },
  {
    name: 'kickout',
    loginType: 'admin',
    act: async (c, t) => {
      await c.admin.expect(200, 'DELETE', `/monitor/online/${tokenIdOf(hashToken(t.accessToken))}`, { token: c.operatorToken });
      return { endAt: Date.now() };
    },
  },
  {
    name: 'kick-all',
    loginType: 'admin',
    act: async (c) => (
      await c.admin.expect(200, 'POST', `/system/user/${c.account.id}/kickout`, { token: c.operatorToken }),
      { endAt: Date.now() }
    ),
  },
  {
    // IssueTokens of the is-concurrent=false app, what its login does once the password is checked (over
    // HTTP this tree refuses the login after replacing: per-user.ts); the new session survives.
    name: 'replacement',
    loginType: 'admin',
    act: async (c) => {
      const user = await c.stack.replacing.built.container.get(TOKENS.AdminDirectory).findById(c.account.id);
      if (user === null) throw new Error(`no account ${c.account.id}`);
      const pair = await c.stack.replacing.built.container
        .get(IssueTokens)
        // the same browser as the login it replaces: session.replaced-range CURR_DEVICE_TYPE (the default) replaces only its device type
        .execute({ loginType: 'admin', principal: principalOf(user), client: { ip: '198.18.255.1', userAgent: CHROME } });
      return { endAt: Date.now(), survivor: { ...pair, ms: 0 } };
    },
  },
  {
    name: 'logout-all',
    loginType: 'web',
    act: async (c, t) => (await c.web.expect(200, 'POST', '/user/logout-all', { token: t.accessToken }), { endAt: Date.now() }),
  },
  {
    name: 'idle',
    loginType: 'admin',
    act: async (c, t) => {
      const loggedInAt = Date.now() - t.ms;
      await later(c, IDLE_S * 1000 + 1000, () => c.admin.expect(401, 'GET', '/auth/me', { token: t.accessToken }));
      return { endAt: loggedInAt + IDLE_S * 1000 };
    },
  },
  {
    name: 'expiry',
    loginType: 'admin',
    act: async (c, t) => {
      const stored = await c.stack.admin.built.container
        .get(TOKENS.SessionStore)
        .getSession('admin', hashToken(t.accessToken), Date.now(), null);
      const expiresAt = stored?.state === 'active' ? (stored.record.expiresAt ?? NaN) : NaN;
      await later(c, expiresAt - Date.now() + 1000, () => c.admin.expect(401, 'GET', '/auth/me', { token: t.accessToken }));
      return { endAt: expiresAt };
    },
  },
  {
    name: 'family revoked',
    loginType: 'admin',
    act: async (c, t) => {
      const { body } = await c.admin.expect(200, 'POST', '/auth/refresh-token', { json: { refreshToken: t.refreshToken } });
      const next = body as Tokens;
      await later(c, REUSE_GRACE_MS + 1000, () =>
        c.admin.expect(401, 'POST', '/auth/refresh-token', { json: { refreshToken: t.refreshToken } }),
      );
      await c.admin.expect(401, 'GET', '/auth/me', { token: next.accessToken });
      return { endAt: Date.now(), moreIds: idsOf({ ...next, ms: 0 }) };
    },
  },
];

/** Σ MEMORY USAGE of the session-side keys of a snapshot, read now. */
async function sessionBytes(redis: RedisDeployment, keys: ReadonlyMap<string, number>, prefix: string): Promise<number> {
  const own = new Map([...keys].filter(([k]) => sessionSide(k, prefix)));
  return [...(await memoryUsage(redis.masters, own)).values()].reduce((a, b) => a + b, 0);
}

/** The family of a live session (its record's `rtFamily`), to find the family's keys by name. */
async function familyOf(stack: Stack, loginType: LoginType, t: Tokens): Promise<string[]> {
  const stored = await stack.admin.built.container
    .get(TOKENS.SessionStore)
    .getSession(loginType, hashToken(t.accessToken), Date.now(), null);
  const family = stored?.state === 'active' ? stored.record.attrs.rtFamily : undefined;
  return family === undefined ? [] : [family];
}

async function measureEnd(ctx: Ctx, def: EndDef, redis: RedisDeployment, prefix: string, ip: () => string): Promise<EndFigure> {
  const s0 = await keysUnder(redis.masters, prefix);
  const client = def.loginType === 'admin' ? ctx.admin : ctx.web;
  const tokens = await (def.loginType === 'admin'
    ? client.adminLogin(ctx.account.username, PASSWORD, ip())
    : client.webLogin(ctx.account.username, PASSWORD, ip()));
  const ids = [...idsOf(tokens), ...(await familyOf(ctx.stack, def.loginType, tokens))];
  const s1 = await keysUnder(redis.masters, prefix);
  const [bytes0, bytes1] = [await sessionBytes(redis, s0, prefix), await sessionBytes(redis, s1, prefix)];
  const ownKeys = [...s1.keys()].filter((k) => !s0.has(k) && sessionSide(k, prefix));
  const ended = await def.act(ctx, tokens, ip);
  const s2 = await keysUnder(redis.masters, prefix);
  const bytes2 = await sessionBytes(redis, s2, prefix);
  const mine = [...ids, ...(ended.moreIds ?? [])];
  const names = (k: string, list: readonly string[]) => list.some((id) => k.includes(id));
  const fresh = [...s2].filter(([k]) => !s0.has(k) && sessionSide(k, prefix));
  const survivor = ended.survivor && [...idsOf(ended.survivor), ...(await familyOf(ctx.stack, def.loginType, ended.survivor))];
  const related = new Map(survivor === undefined ? fresh : fresh.filter(([k]) => names(k, mine) || (!s1.has(k) && !names(k, survivor))));
  const now = Date.now();
  const outlive = [...(await ttls(redis.masters, related)).values()]
    .filter((ms) => ms !== -2)
    .map((ms) => (ms === -1 ? Infinity : now + ms - ended.endAt));
  const longest = outlive.length === 0 ? null : Math.max(...outlive);
  return {
    end: def.name,
    keysOfLogin: ownKeys.length,
    left: outlive.length,
    leftAfterDay: outlive.filter((ms) => ms > DAY).length,
    longestDays: longest === null ? null : longest === Infinity ? -1 : round(longest / DAY, 2),
    bySpace: countBySpace(related.keys(), prefix),
    bytesLeft: bytes2 - bytes0 - (survivor === undefined ? 0 : bytes1 - bytes0),
  };
}

/** Every end of ENDS on `redis`, under `prefix` (removed afterwards). */
export async function measureEnds(redis: RedisDeployment, prefix: string, directory: string): Promise<EndFigure[]> {
  const clock = new ShiftedClock();
  const stack = await startStack({ mode: redis.kind, redis, prefix, directory, clock, activeTimeoutSeconds: IDLE_S });
  const [admin, web, replacing] = [new Client(stack.admin.port), new Client(stack.web.port), new Client(stack.replacing.port)];
  let n = 0;
  const ip = () => `198.18.${n >> 8}.${n++ & 255}`;
  try {
    const operatorToken = (await admin.adminLogin('admin', PASSWORD, ip())).accessToken;
    // Shared index keys (the online index, 16 buckets on a cluster) exist before the first end, as
    // in a service that has sessions: an end's count is its own keys, its index entries are in bytesLeft.
    const managers = stack.admin.built.container.get(SessionManagers);
    for (const type of ['admin', 'web'] as const)
      for (let i = 0; i < 200; i++) await managers.get(type).login({ userId: 'warm', username: 'warm', roles: [], permissions: [] });
    const out: EndFigure[] = [];
    for (const [i, def] of ENDS.entries()) {
      const ctx: Ctx = { stack, clock, admin, web, replacing, operatorToken, account: endAccount(i) };
      out.push(await measureEnd(ctx, def, redis, prefix, ip));
    }
    return out;
  } finally {
    for (const c of [admin, web, replacing]) c.close();
    await stack.close();
    await dropPrefix(redis.masters, prefix);
  }
}
