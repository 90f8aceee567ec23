/**
 * The local session cache in the bench: `admin-redis-cache`, the admin app on Redis with
 * session.local-cache.enabled=true (bench/servers/authguard-cache.ts), serving the same
 * authenticated GET as admin-memory and admin-redis.
 *
 * - In bench/run.ts: `cacheScenario` has the shape of a row of its SCENARIOS table; add it after
 *   `admin-redis` (`import { cacheScenario } from './cache-scenario'` and `cacheScenario,` in the
 *   array). Its server is compiled with the others (it lives in bench/servers/).
 * - Alone: `npx tsx bench/cache-scenario.ts` compiles the servers as run.ts does, starts
 *   admin-memory, admin-redis and admin-redis-cache, drives them in alternating rounds (autocannon,
 *   -c 50) and prints, per scenario, the median req/s, the server's CPU µs per request (user +
 *   system from /proc/<pid>/stat over the round, divided by the requests served) and Redis
 *   commands per request (INFO commandstats deltas), with the ratios of one run. It runs its own
 *   redis-server on a spare port when the binary is installed (so nobody else's commands are
 *   counted), else REDIS_URL. Env: BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (50).
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';

const ROOT = path.join(__dirname, '..');
const AUTH_PATH = process.env.BENCH_AUTH_PATH ?? '/system/user/list';

interface Ready {
  port: number;
  token?: string;
}

/** A row of bench/run.ts's SCENARIOS. */
export const cacheScenario = {
  name: 'admin-redis-cache',
  description: `admin ${AUTH_PATH}, full stack, Redis store with the local session cache (session.local-cache.enabled)`,
  script: 'bench/servers/authguard-cache.ts',
  usesRedis: true,
  request: (r: Ready) => ({ path: AUTH_PATH, headers: { authorization: `Bearer ${r.token}` } }),
};

const ROWS = [
  { name: 'admin-memory', script: 'bench/servers/authguard.ts', args: ['memory'], usesRedis: false },
  { name: 'admin-redis', script: 'bench/servers/authguard.ts', args: ['redis'], usesRedis: true },
  { name: cacheScenario.name, script: cacheScenario.script, args: [], usesRedis: true },
];

function compileServers(): void {
  const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'bench/tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('compiling the servers failed');
  const worker = 'src/adapters/crypto/crypto-worker.js';
  fs.copyFileSync(path.join(ROOT, worker), path.join(ROOT, 'bench/.build', worker));
  const scripts = 'src/adapters/redis/scripts';
  fs.cpSync(path.join(ROOT, scripts), path.join(ROOT, 'bench/.build', scripts), { recursive: true });
}

function start(script: string, args: string[], redisUrl: string): Promise<{ child: ChildProcess; ready: Ready }> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(ROOT, 'bench/.build', script.replace(/\.ts$/, '.js')), args, {
      cwd: ROOT,
      execArgv: [],
      env: { ...process.env, REDIS_URL: redisUrl, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve({ child, ready: m as Ready });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** User + system CPU of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function redisCalls(redis: Redis): Promise<number> {
  let total = 0;
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([a-z|_-]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info') total += Number(m[2]);
  }
  return total;
}

interface Sample {
  rps: number;
  cpuUsPerRequest: number;
  redisPerRequest: number | null;
}

async function drive(row: (typeof ROWS)[number], s: { child: ChildProcess; ready: Ready }, redis: Redis): Promise<Sample> {
  const before = row.usesRedis ? await redisCalls(redis) : 0;
  const cpu0 = cpuMs(s.child.pid as number);
  const result = await autocannon({
    url: `http://127.0.0.1:${s.ready.port}${AUTH_PATH}`,
    headers: { authorization: `Bearer ${s.ready.token}` },
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    duration: Number(process.env.BENCH_SECONDS ?? 3),
  });
  const cpu = cpuMs(s.child.pid as number) - cpu0;
  const after = row.usesRedis ? await redisCalls(redis) : 0;
  const n = result.requests.total;
  if (result.non2xx + result.errors > 0) throw new Error(`${row.name}: ${result.non2xx + result.errors} non-2xx answers or errors`);
  return { rps: result.requests.average, cpuUsPerRequest: (cpu * 1000) / n, redisPerRequest: row.usesRedis ? (after - before - 1) / n : null };
}

async function ownRedis(): Promise<{ url: string; stop(): void }> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', stop: () => undefined };
  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore', detached: true });
  await new Promise((r) => setTimeout(r, 300));
  return { url: `redis://127.0.0.1:${port}`, stop: () => process.kill(-(proc.pid as number), 'SIGKILL') };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function main(): Promise<void> {
  compileServers();
  const redisServer = await ownRedis();
  const redis = new Redis(redisServer.url);
  const running = new Map<string, { child: ChildProcess; ready: Ready }>();
  const samples = new Map<string, Sample[]>();
  try {
    for (const row of ROWS) running.set(row.name, await start(row.script, row.args, redisServer.url));
    for (let round = 1; round <= Number(process.env.BENCH_ROUNDS ?? 5); round++) {
      for (const row of ROWS) {
        const sample = await drive(row, running.get(row.name) as { child: ChildProcess; ready: Ready }, redis);
        samples.set(row.name, [...(samples.get(row.name) ?? []), sample]);
        process.stderr.write(`round ${round} ${row.name}: ${sample.rps.toFixed(0)} req/s, ${sample.cpuUsPerRequest.toFixed(1)} µs CPU/req\n`);
      }
    }
  } finally {
    for (const { child } of running.values()) child.kill();
    redis.disconnect();
    redisServer.stop();
  }
  const stats = ROWS.map((row) => {
    const xs = samples.get(row.name) ?? [];
    const rpr = xs.map((x) => x.redisPerRequest).filter((x): x is number => x !== null);
    return { name: row.name, rps: median(xs.map((x) => x.rps)), cpu: median(xs.map((x) => x.cpuUsPerRequest)), redis: rpr.length > 0 ? median(rpr) : null };
  });
  const mem = stats[0] as (typeof stats)[number];
  console.log(`\n| scenario | median req/s | × admin-memory | CPU µs/req | × admin-memory CPU | Redis cmds/req |\n|---|---|---|---|---|---|`);
  for (const s of stats) {
    console.log(`| ${s.name} | ${Math.round(s.rps)} | ${(s.rps / mem.rps).toFixed(2)} | ${s.cpu.toFixed(1)} | ${(s.cpu / mem.cpu).toFixed(2)} | ${s.redis === null ? '-' : s.redis.toFixed(3)} |`);
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
