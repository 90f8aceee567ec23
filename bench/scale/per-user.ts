/**
 * One account with `count` (10,000) sessions, each with its refresh token (fill.ts `fillUser`), on
 * the store that already holds the filler's N sessions. Each operation over HTTP, timed, with the
 * event loop's longest delay while it ran:
 *   admin app  GET /auth/sessions (the account's own list: time and bytes of the answer), then a
 *              login of the account on the `is-concurrent=false` app (replaces all of them), then,
 *              on `count` fresh sessions, POST /system/user/3/kickout by the operator (kick all);
 *   web app    GET /user/sessions, then POST /user/logout-all.
 * On Redis, the keys the phase left (every key under the prefix that was not there before it) are
 * counted, reported per ended session, and removed, so the next size starts from the filler's keys.
 */
import { performance } from 'node:perf_hooks';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { fillUser } from './fill';
import { Client, LoopDelay, round } from './http';
import { countBySpace, keysAddedSince, keySet, sessionSide, unlinkKeys } from './keys';
import type { RedisDeployment } from './redis';
import { ACCOUNTS, PASSWORD, type Stack } from './stack';

export interface Timed {
  readonly ms: number;
  readonly maxLoopDelay: number;
  /** Bytes of the answer (lists). */
  readonly bytes?: number;
  /** Sessions the operation says it ended. */
  readonly ended?: number;
  /** The HTTP status, where it is not the usual one (the replacing login: see replacingLogin). */
  readonly status?: number;
}

export interface PerUserFigures {
  readonly sessions: number;
  /** IssueTokens per second while filling the account's sessions. */
  readonly fillPerSecond: number;
  /** MEMORY USAGE of the account's per-user index at `sessions` sessions (Redis, today's layout). */
  readonly userIndexBytes: number | null;
  readonly adminList: Timed;
  readonly replacingLogin: Timed;
  readonly kickAll: Timed;
  readonly webList: Timed;
  readonly logoutAll: Timed;
  /** Keys left under the prefix by the phase (3 × sessions ended), per ended session, by space. */
  readonly keysLeftPerEnded: { total: number; bySpace: Record<string, number> } | null;
}

async function timed(loop: LoopDelay, fn: () => Promise<{ bytes?: number; ended?: number; status?: number }>): Promise<Timed> {
  const { value, ms, maxDelayMs } = await loop.during(fn);
  return { ms: round(ms), maxLoopDelay: round(maxDelayMs), ...value };
}

async function fill(stack: Stack, app: 'admin' | 'web', count: number, rate: number[]): Promise<string> {
  const started = performance.now();
  const tokens = await fillUser(stack[app].built, app, ACCOUNTS.bulk.username, count);
  rate.push(count / ((performance.now() - started) / 1000));
  return tokens[0] as string;
}

/** The account's per-user index, by the layout's own name for it (src/adapters/redis/key-layout.ts); null where it has none. */
async function userIndexBytes(redis: RedisDeployment, prefix: string): Promise<number | null> {
  const key = new RedisKeys(prefix, redis.kind === 'cluster' ? 'tagged' : 'plain').user('admin', ACCOUNTS.bulk.id);
  for (const m of redis.masters) {
    const b = await m.call('MEMORY', 'USAGE', key, 'SAMPLES', '0').catch(() => null);
    if (b !== null) return Number(b);
  }
  return null;
}

async function adminSide(stack: Stack, o: PhaseOptions, rate: number[]) {
  const admin = new Client(stack.admin.port);
  const replacing = new Client(stack.replacing.port);
  const token = await fill(stack, 'admin', o.count, rate);
  const userIndex = o.redis ? await userIndexBytes(o.redis, o.prefix) : null;
  const adminList = await timed(o.loop, async () => ({
    bytes: (await admin.expect(200, 'GET', '/auth/sessions?page=1&size=20', { token })).answer.bytes,
  }));
  // With is-concurrent=false this tree answers every password login 401 "The account changed during this
  // login" (the refresh cut-off the replacement itself writes is later than the account's read; found by
  // this bench, see docs/performance.md): the replacement is done all the same, so it is timed either way.
  const replacingLogin = await timed(o.loop, async () => {
    const answer = await replacing.adminLoginAnswer(ACCOUNTS.bulk.username, PASSWORD, '100.127.0.1');
    if (answer.status !== 200 && answer.status !== 401) throw new Error(`replacing login: HTTP ${answer.status}`);
    return answer.status === 200 ? {} : { status: answer.status };
  });
  await admin.expect(401, 'GET', '/auth/me', { token }); // replaced
  await fill(stack, 'admin', o.count, rate);
  const kickAll = await timed(o.loop, async () => {
    const { body } = await admin.expect(200, 'POST', `/system/user/${ACCOUNTS.bulk.id}/kickout`, { token: o.operatorToken });
    return { ended: (body as { sessionsEnded: number }).sessionsEnded };
  });
  admin.close();
  replacing.close();
  return { userIndex, adminList, replacingLogin, kickAll };
}

async function webSide(stack: Stack, o: PhaseOptions, rate: number[]) {
  const web = new Client(stack.web.port);
  const token = await fill(stack, 'web', o.count, rate);
  const webList = await timed(o.loop, async () => ({
    bytes: (await web.expect(200, 'GET', '/user/sessions?page=1&size=20', { token })).answer.bytes,
  }));
  const logoutAll = await timed(o.loop, async () => {
    const { body } = await web.expect(200, 'POST', '/user/logout-all', { token });
    return { ended: (body as { endedSessions: number }).endedSessions };
  });
  web.close();
  return { webList, logoutAll };
}

export interface PhaseOptions {
  readonly count: number;
  readonly operatorToken: string;
  readonly loop: LoopDelay;
  readonly redis: RedisDeployment | null;
  readonly prefix: string;
}

export async function perUserPhase(stack: Stack, o: PhaseOptions): Promise<PerUserFigures> {
  const before = o.redis ? await keySet(o.redis.masters, o.prefix) : null;
  const rate: number[] = [];
  const a = await adminSide(stack, o, rate);
  const w = await webSide(stack, o, rate);
  let keysLeftPerEnded: PerUserFigures['keysLeftPerEnded'] = null;
  if (o.redis && before) {
    const added = await keysAddedSince(o.redis.masters, o.prefix, before);
    const left = [...added.keys()].filter((k) => sessionSide(k, o.prefix));
    const ended = 3 * o.count;
    const bySpace = Object.fromEntries(Object.entries(countBySpace(left, o.prefix)).map(([s, c]) => [s, round(c / ended, 2)]));
    keysLeftPerEnded = { total: round(left.length / ended, 2), bySpace };
    await unlinkKeys(o.redis.masters, added);
  }
  return {
    sessions: o.count,
    fillPerSecond: round(rate.reduce((x, y) => x + y, 0) / rate.length, 0),
    userIndexBytes: a.userIndex,
    adminList: a.adminList,
    replacingLogin: a.replacingLogin,
    kickAll: a.kickAll,
    webList: w.webList,
    logoutAll: w.logoutAll,
    keysLeftPerEnded,
  };
}
