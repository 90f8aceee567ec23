/**
 * npm run bench: starts each server as its own process, drives it with autocannon in alternating
 * rounds (A B C ... A B C ...), and prints medians and ratios against the bare-Koa baseline of the
 * same run. Writes bench/results/latest.json. Never asserts absolute times: these machines are noisy.
 *
 * Env: BENCH_ROUNDS (default 5), BENCH_SECONDS per round (default 3), BENCH_LOGIN_SECONDS (default 5), BENCH_CONNECTIONS (default 50),
 * REDIS_URL (default redis://127.0.0.1:6379), BENCH_ONLY (comma-separated scenario names; `login-timing`
 * is the timing scenario of bench/login-timing.ts, run last), BENCH_TIMING_SAMPLES (default 60).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { constants, createHmac, publicEncrypt, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import { BENCH_APP } from './servers/authguard';
import { describeTiming, measureLoginTiming } from './login-timing';

const ROOT = path.join(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** The login phase is measured once (not in alternating rounds): longer windows keep it steady. */
const LOGIN_SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const AUTH_PATH = process.env.BENCH_AUTH_PATH ?? '/system/user/list'; // login + permission system:user:list

interface Ready {
  port: number;
  token?: string;
  cookie?: string;
}

interface RequestSpec {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Rewrites each request before it is sent (fresh nonce and signature, client address, ...). */
  setupRequest?: (req: { headers?: Record<string, string>; body?: string }) => { headers?: Record<string, string>; body?: string };
}

interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly script: string;
  readonly args?: string[];
  readonly usesRedis: boolean;
  request(ready: Ready): RequestSpec;
}

/** A 1 KiB JSON body, signed afresh for every request (the nonce is single use). */
const SIGNED_BODY = JSON.stringify({ payload: 'x'.repeat(1024 - 16) });
function signedRequest(): RequestSpec {
  return {
    path: '/open/echo',
    method: 'POST',
    setupRequest: (req) => {
      const ts = String(Date.now());
      const nonce = randomBytes(12).toString('hex');
      const sign = createHmac('sha256', BENCH_APP.secret).update(BENCH_APP.key + ts + nonce + SIGNED_BODY).digest('hex');
      return {
        ...req,
        body: SIGNED_BODY,
        headers: { ...req.headers, 'content-type': 'application/json', 'x-app-key': BENCH_APP.key, 'x-timestamp': ts, 'x-nonce': nonce, 'x-sign': sign },
      };
    },
  };
}

const SCENARIOS: Scenario[] = [
  { name: 'baseline', description: 'bare Koa, one JSON route', script: 'bench/servers/bare-koa.ts', usesRedis: false, request: () => ({ path: '/hello' }) },
  {
    name: 'thin-memory', description: 'reference floor: Koa + router + token Map + permission set, nothing else', script: 'bench/servers/thin-koa.ts', args: ['memory'], usesRedis: false,
    request: (r) => ({ path: '/system/user/list', headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'thin-redis', description: 'reference floor on Redis: the same with one ioredis GET (auto-pipelined)', script: 'bench/servers/thin-koa.ts', args: ['redis'], usesRedis: true,
    request: (r) => ({ path: '/system/user/list', headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'admin-memory', description: `admin ${AUTH_PATH}, full stack, in-memory store`, script: 'bench/servers/authguard.ts', args: ['memory'], usesRedis: false,
    request: (r) => ({ path: AUTH_PATH, headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'admin-redis', description: `admin ${AUTH_PATH}, full stack, Redis store`, script: 'bench/servers/authguard.ts', args: ['redis'], usesRedis: true,
    request: (r) => ({ path: AUTH_PATH, headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'public-redis', description: 'public GET /auth/getConfig on the Redis-backed admin app (needs no store)', script: 'bench/servers/authguard.ts', args: ['redis'], usesRedis: true,
    request: () => ({ path: '/auth/getConfig' }),
  },
  {
    name: 'signed-post-redis', description: 'signed POST /open/echo, 1 KiB body, Redis nonce store', script: 'bench/servers/authguard.ts', args: ['redis'], usesRedis: true,
    request: () => signedRequest(),
  },
  {
    name: 'express-passport', description: 'Express + Passport + express-session + connect-redis, same check', script: 'bench/peers/express-passport.ts', usesRedis: true,
    request: (r) => ({ path: '/system/user/list', headers: { cookie: r.cookie ?? '' } }),
  },
];

/**
 * The servers run as compiled JavaScript, as in production (`npm start` runs `dist/`): under tsx the
 * same code is ~20 % slower (esbuild's keepNames wraps every closure it creates in __name()).
 * Compiled with tsc into bench/.build (gitignored), the crypto worker copied beside its pool and
 * the Redis stores' Lua scripts beside the stores.
 */
function compileServers(): void {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'bench/tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('bench: compiling the servers failed');
  const worker = 'src/adapters/crypto/crypto-worker.js';
  fs.copyFileSync(path.join(ROOT, worker), path.join(ROOT, 'bench/.build', worker));
  const scripts = 'src/adapters/redis/scripts';
  fs.cpSync(path.join(ROOT, scripts), path.join(ROOT, 'bench/.build', scripts), { recursive: true });
}

function compiledScript(script: string): string {
  return path.join(ROOT, 'bench/.build', script.replace(/\.ts$/, '.js'));
}

function start(s: Scenario): Promise<{ child: ChildProcess; ready: Ready }> {
  return new Promise((resolve, reject) => {
    const child = fork(compiledScript(s.script), s.args ?? [], {
      cwd: ROOT,
      execArgv: [],
      env: { ...process.env, REDIS_URL, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => reject(new Error(`${s.name} did not start`)), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve({ child, ready: m as Ready });
    });
    child.once('exit', (code) => reject(new Error(`${s.name} exited with ${code}`)));
  });
}

async function redisCalls(redis: Redis): Promise<number> {
  const info = await redis.info('commandstats');
  let total = 0;
  for (const line of info.split('\n')) {
    const m = /^cmdstat_([a-z|_-]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info') total += Number(m[2]);
  }
  return total;
}

async function drive(s: Scenario, ready: Ready, redis: Redis | null): Promise<{ rps: number; p99: number; requests: number; non2xx: number; redisPerRequest: number | null }> {
  const req = s.request(ready);
  const before = redis ? await redisCalls(redis) : 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${ready.port}${req.path}`,
    method: req.method ?? 'GET',
    headers: req.headers,
    body: req.body,
    ...(req.setupRequest ? { requests: [{ method: req.method ?? 'GET', path: req.path, setupRequest: req.setupRequest as never }] } : {}),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const after = redis ? await redisCalls(redis) : 0;
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    requests,
    non2xx: result.non2xx + result.errors,
    redisPerRequest: redis && requests > 0 ? (after - before - 1) / requests : null,
  };
}

function randomClientIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

interface LoginFigures {
  singleThreadComparesPerSecond: number;
  loginsPerSecond: number;
  loginRatioToSingleThread: number;
  authP99QuietMs: number;
  authP99DuringStormMs: number;
  p99Ratio: number;
}

/**
 * Logins: throughput against the single-thread bcryptjs rate measured in this process, and the
 * p99 of authenticated requests with and without a concurrent login storm.
 */
async function loginPhase(scenario: Scenario): Promise<LoginFigures> {
  const hash = bcrypt.hashSync('admin123', 10);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 3000) {
    bcrypt.compareSync('admin123', hash);
    n++;
  }
  const singleThread = n / ((performance.now() - t0) / 1000);
  const { child, ready } = await start(scenario);
  try {
    const base = `http://127.0.0.1:${ready.port}`;
    const cfg = (await (await fetch(`${base}/auth/getConfig`)).json()) as { data: { publicKey: string } };
    const password = publicEncrypt({ key: cfg.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString('base64');
    const loginBody = JSON.stringify({ username: 'admin', password });
    const storm = (seconds: number) =>
      autocannon({
        url: `${base}/auth/login`,
        connections: 8,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/auth/login',
            setupRequest: ((req: { headers?: Record<string, string> }) => ({
              ...req,
              body: loginBody,
              headers: { ...req.headers, 'content-type': 'application/json', 'x-forwarded-for': randomClientIp() },
            })) as never,
          },
        ],
      });
    const auth = (seconds: number) =>
      autocannon({ url: `${base}${AUTH_PATH}`, headers: { authorization: `Bearer ${ready.token}` }, connections: 10, duration: seconds });
    const alone = await storm(LOGIN_SECONDS + 2);
    if (alone.non2xx > 0) throw new Error(`login storm: ${alone.non2xx} non-2xx answers`);
    const quiet = await auth(LOGIN_SECONDS);
    const [stormed, loud] = await Promise.all([storm(LOGIN_SECONDS), auth(LOGIN_SECONDS)]);
    if (loud.non2xx > 0 || stormed.non2xx > 0) throw new Error('non-2xx answers during the storm');
    const loginsPerSecond = alone.requests.total / (LOGIN_SECONDS + 2);
    return {
      singleThreadComparesPerSecond: +singleThread.toFixed(1),
      loginsPerSecond: +loginsPerSecond.toFixed(1),
      loginRatioToSingleThread: +(loginsPerSecond / singleThread).toFixed(2),
      authP99QuietMs: quiet.latency.p99,
      authP99DuringStormMs: loud.latency.p99,
      p99Ratio: +(loud.latency.p99 / Math.max(1, quiet.latency.p99)).toFixed(2),
    };
  } finally {
    child.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',');
  const scenarios = SCENARIOS.filter((s) => !only || only.includes(s.name) || s.name === 'baseline');
  compileServers();
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const running = new Map<string, { child: ChildProcess; ready: Ready }>();
  for (const s of scenarios) running.set(s.name, await start(s));
  const samples = new Map<string, Array<Awaited<ReturnType<typeof drive>>>>();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const s of scenarios) {
        const r = running.get(s.name) as { ready: Ready };
        const sample = await drive(s, r.ready, s.usesRedis ? redis : null);
        if (sample.non2xx > 0) throw new Error(`${s.name}: ${sample.non2xx} non-2xx responses or errors`);
        samples.set(s.name, [...(samples.get(s.name) ?? []), sample]);
        process.stderr.write(`round ${round} ${s.name}: ${sample.rps.toFixed(0)} req/s p99 ${sample.p99} ms\n`);
      }
    }
  } finally {
    for (const { child } of running.values()) child.kill();
    redis.disconnect();
  }
  const base = median((samples.get('baseline') ?? []).map((x) => x.rps));
  const rows = scenarios.map((s) => {
    const xs = samples.get(s.name) ?? [];
    const rps = median(xs.map((x) => x.rps));
    const rpr = xs[0]?.redisPerRequest === null ? null : median(xs.map((x) => x.redisPerRequest ?? 0));
    return { scenario: s.name, description: s.description, medianRps: Math.round(rps), ratioToBaseline: +(rps / base).toFixed(3), p99Ms: median(xs.map((x) => x.p99)), redisCommandsPerRequest: rpr === null ? null : +rpr.toFixed(3) };
  });
  const peer = rows.find((r) => r.scenario === 'express-passport');
  const table = [
    '| scenario | median req/s | × baseline | p99 ms | Redis cmds/req |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.medianRps} | ${r.ratioToBaseline.toFixed(2)} | ${r.p99Ms} | ${r.redisCommandsPerRequest ?? '-'} |`),
  ].join('\n');
  console.log(`\n${table}\n`);
  const targets: string[] = [];
  const mem = rows.find((r) => r.scenario === 'admin-memory');
  const red = rows.find((r) => r.scenario === 'admin-redis');
  if (mem) targets.push(`authenticated GET, in-memory: ${mem.ratioToBaseline.toFixed(2)}× baseline (target ≥ 0.60)`);
  if (red) targets.push(`authenticated GET, Redis: ${red.ratioToBaseline.toFixed(2)}× baseline (target ≥ 0.40)`);
  if (red && peer) targets.push(`Redis stack vs Express/Passport peer: ${(red.medianRps / peer.medianRps).toFixed(1)}× (target ≥ 5)`);
  const thinMem = rows.find((r) => r.scenario === 'thin-memory');
  const thinRed = rows.find((r) => r.scenario === 'thin-redis');
  if (mem && thinMem) targets.push(`full stack vs the thin reference floor, in-memory: ${(mem.medianRps / thinMem.medianRps).toFixed(2)}× (floor ${thinMem.ratioToBaseline.toFixed(2)}× baseline)`);
  if (red && thinRed) targets.push(`full stack vs the thin reference floor, Redis: ${(red.medianRps / thinRed.medianRps).toFixed(2)}× (floor ${thinRed.ratioToBaseline.toFixed(2)}× baseline)`);
  if (red) targets.push(`Redis commands per authenticated request: ${red.redisCommandsPerRequest} (target 1)`);
  const pub = rows.find((r) => r.scenario === 'public-redis');
  if (pub) targets.push(`Redis commands per public request (getConfig): ${pub.redisCommandsPerRequest} (target 0)`);
  const signed = rows.find((r) => r.scenario === 'signed-post-redis');
  if (signed) targets.push(`Redis commands per signed request: ${signed.redisCommandsPerRequest} (target 1, the nonce)`);
  let logins: LoginFigures | null = null;
  if (!only || only.includes('logins')) {
    logins = await loginPhase(SCENARIOS.find((x) => x.name === 'admin-memory') as Scenario);
    console.log(`\nlogins: ${logins.loginsPerSecond}/s vs ${logins.singleThreadComparesPerSecond} single-thread bcryptjs compares/s (cost 10)`);
    console.log(`authenticated p99: ${logins.authP99QuietMs} ms alone, ${logins.authP99DuringStormMs} ms during a login storm`);
    targets.push(`logins: ${logins.loginRatioToSingleThread}× the single-thread bcryptjs rate (target ≥ 1.8)`);
    targets.push(`authenticated p99 during a login storm: ${logins.p99Ratio}× its p99 without (target ≤ 2)`);
  }
  console.log(targets.map((t) => `- ${t}`).join('\n'));
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  // Login timing (unknown user vs wrong password): after the throughput rounds, on a quiet machine.
  const timing = !only || only.includes('login-timing') ? await measureLoginTiming(Number(process.env.BENCH_TIMING_SAMPLES ?? 60)) : null;
  if (timing) console.log(`- ${describeTiming(timing)}`);
  fs.writeFileSync(
    path.join(ROOT, 'bench/results/latest.json'),
    JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, secondsPerRound: SECONDS, connections: CONNECTIONS, rows, logins, targets, loginTiming: timing }, null, 2),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
