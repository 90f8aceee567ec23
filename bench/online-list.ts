/**
 * npm run bench, step: GET /monitor/online at scale (docs/performance.md#online-list). In one
 * process, the admin app (full middleware stack) on a Redis of its own (bench/redis.ts), and on
 * the in-memory store for comparison, is filled with sessions written through the session store
 * (never through logins: SessionStore.create, as a login writes them, with the client's IP, User-Agent
 * and its parsed names), to each size of BENCH_ONLINE_SIZES in turn. At each size, one client sends
 * the requests below one after the other (keep-alive), interleaved, and the bench prints p50 and p99
 * of each and the ratio of its p50 to GET /auth/me's (the goal: the first page and the
 * username-filtered page within 20 ms p50 on Redis at 100,000 sessions):
 *   - GET /auth/me (the authenticated baseline);
 *   - GET /monitor/online?page=1&size=20 (the first page);
 *   - GET /monitor/online?username=viewer&size=20 (one user's 20 sessions, through the per-user index);
 *   - GET /monitor/online?page=500&size=20 (the deepest page allowed, 9,980 sessions in);
 *   - GET /monitor/online?ip=<an IP of 5 sessions>&size=20 (a scan of 10,000 index entries, bounded).
 * Writes bench/results/online-list.json.
 * Env: BENCH_ONLINE_SIZES (default 10000,100000), BENCH_ONLINE_SAMPLES per request and size (default 200),
 * BENCH_ONLINE_STORES (default redis,memory).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { createPinoLogger } from '../src/adapters/logging/pino-logger';
import type { SessionStore } from '../src/application/ports/session-store';
import { SessionManagers } from '../src/application/session/session-manager';
import { hashToken, tokenIdOf } from '../src/application/session/session-token';
import { TOKENS } from '../src/application/tokens';
import type { SessionRecord } from '../src/domain/session';
import { buildAdminApp } from '../src/main/admin';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';
import { benchRedis } from './redis';

const SIZES = (process.env.BENCH_ONLINE_SIZES ?? '10000,100000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_ONLINE_SAMPLES ?? 200);
const STORES = (process.env.BENCH_ONLINE_STORES ?? 'redis,memory').split(',').map((s) => s.trim()) as Array<'redis' | 'memory'>;
const GOAL_MS = 20;
const HOUR = 3_600_000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** The viewer of config/users.yml (id 2): 20 of the sessions are its own. */
const VIEWER = { userId: '2', username: 'viewer', sessions: 20 };
const RARE_IP = '192.0.2.77';

const REQUESTS = {
  me: '/auth/me',
  firstPage: '/monitor/online?page=1&size=20',
  byUsername: `/monitor/online?username=${VIEWER.username}&size=20`,
  deepPage: '/monitor/online?page=500&size=20',
  byIp: `/monitor/online?ip=${RARE_IP}&size=20`,
} as const;
type RequestName = keyof typeof REQUESTS;

function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

/** The i-th seeded session's record, as a login writes it (its client's User-Agent read once into names). */
function recordOf(i: number, hash: string, now: number): SessionRecord {
  const viewer = i < VIEWER.sessions;
  const userId = viewer ? VIEWER.userId : `bench-${i % 5000}`;
  return {
    v: 1,
    loginType: 'admin',
    tokenId: tokenIdOf(hash),
    // Logins spread over the last hour, oldest first as they came in.
    createdAt: now - HOUR + Math.floor((i * HOUR) / 1_000_000),
    expiresAt: now + 2 * HOUR,
    principal: { userId, username: viewer ? VIEWER.username : `user${i % 5000}`, roles: ['viewer'], permissions: ['monitor:online:list'] },
    client: {
      ip: i % 20_000 === 7 ? RARE_IP : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      userAgent: CHROME,
      os: 'Windows 10',
      browser: 'Chrome 126',
      deviceType: 'desktop',
    },
    attrs: {},
  };
}

/** Writes sessions `from`..`to`-1 through the store, 256 at a time. */
async function seed(store: SessionStore, from: number, to: number): Promise<void> {
  const now = Date.now();
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const hash = hashToken(`bench-online-${i}`);
      await store.create({
        loginType: 'admin',
        tokenHash: hash,
        record: recordOf(i, hash, now),
        retentionMs: 3 * HOUR,
        admission: { kind: 'add' },
        now,
      });
    }
  };
  await Promise.all(Array.from({ length: 256 }, worker));
}

async function get(agent: http.Agent, port: number, token: string, p: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: p, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${p}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
  return performance.now() - started;
}

interface Figure {
  readonly p50: number;
  readonly p99: number;
  readonly ratioToMe: number;
}

async function measure(port: number, token: string): Promise<Record<RequestName, Figure>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = Object.fromEntries(Object.keys(REQUESTS).map((k) => [k, [] as number[]])) as Record<RequestName, number[]>;
  for (let i = 0; i < 10; i++) for (const p of Object.values(REQUESTS)) await get(agent, port, token, p); // warm-up
  for (let i = 0; i < SAMPLES; i++)
    for (const [k, p] of Object.entries(REQUESTS)) times[k as RequestName].push(await get(agent, port, token, p));
  agent.destroy();
  const me = percentile(times.me, 0.5);
  const out = {} as Record<RequestName, Figure>;
  for (const k of Object.keys(REQUESTS) as RequestName[]) {
    const p50 = percentile(times[k], 0.5);
    out[k] = { p50: +p50.toFixed(2), p99: +percentile(times[k], 0.99).toFixed(2), ratioToMe: +(p50 / me).toFixed(2) };
  }
  return out;
}

async function runStore(
  store: 'redis' | 'memory',
  redisUrl: string,
): Promise<Array<{ store: string; sessions: number; figures: Record<RequestName, Figure> }>> {
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: { 'svc.store': store, 'svc.captcha.enabled': false, ...(store === 'redis' ? { 'svc.redis.url': redisUrl } : {}) },
  });
  const log = createPinoLogger({ level: 'info', destination: pino.destination('/dev/null') });
  const infra = createInfrastructure(config, { log, keyPrefix: `agbench:online:${process.pid}:` });
  const built = buildAdminApp(config, infra);
  const server = http.createServer(built.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const sessions = built.container.get(TOKENS.SessionStore);
  const { token } = await built.container
    .get(SessionManagers)
    .get('admin')
    .login({ userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] }, { ip: '127.0.0.1' });
  const rows = [];
  try {
    let filled = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      await seed(sessions, filled, size);
      console.error(
        `${store}: ${size} sessions (${(size - filled).toLocaleString('en')} written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
      filled = size;
      rows.push({ store, sessions: size, figures: await measure(port, token) });
    }
  } finally {
    await new Promise((r) => server.close(r));
    await infra.close();
  }
  return rows;
}

async function main(): Promise<void> {
  const redis = STORES.includes('redis') ? await benchRedis() : null;
  const results = [];
  try {
    for (const store of STORES) results.push(...(await runStore(store, redis?.url ?? '')));
  } finally {
    redis?.stop();
  }
  const names = Object.keys(REQUESTS) as RequestName[];
  console.log(`\nGET /monitor/online at scale (${SAMPLES} sequential requests each, keep-alive; ms, and p50 / p50 of /auth/me)\n`);
  console.log(`| store | sessions | ${names.map((n) => `${REQUESTS[n]} p50 / p99 (× me)`).join(' | ')} |`);
  console.log(`|---|---|${names.map(() => '---').join('|')}|`);
  for (const r of results) {
    const cells = names.map((n) => `${r.figures[n].p50} / ${r.figures[n].p99} (${r.figures[n].ratioToMe}×)`);
    console.log(`| ${r.store} | ${r.sessions.toLocaleString('en')} | ${cells.join(' | ')} |`);
  }
  for (const r of results.filter((x) => x.store === 'redis' && x.sessions === Math.max(...SIZES))) {
    for (const n of ['firstPage', 'byUsername'] as const) {
      const f = r.figures[n];
      console.log(
        `- redis, ${r.sessions} sessions, ${REQUESTS[n]}: p50 ${f.p50} ms (goal ≤ ${GOAL_MS} ms) ${f.p50 <= GOAL_MS ? 'met' : 'NOT MET'}`,
      );
    }
  }
  const out = path.join(__dirname, 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(
    path.join(out, 'online-list.json'),
    JSON.stringify({ date: new Date().toISOString(), samples: SAMPLES, results }, null, 2),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
