/**
 * npm run bench: starts each server of bench/scenarios.ts as its own process, drives it with
 * wrk (autocannon where wrk is not installed; placement of processes on CPUs: bench/load.ts) in alternating rounds (A B C ... A B C ...),
 * and prints, per scenario, the median
 * req/s and the median server CPU time per request, each with its ratio to the bare-Koa baseline
 * of the same run. Writes bench/results/latest.json. Never asserts absolute times: these machines are noisy.
 *
 * CPU per request: user + system time of the server process (/proc/<pid>/stat, all its threads)
 * over the round, divided by the requests the generator completed in it. Unlike req/s it does not
 * depend on how the load generator and the server share the cores as much.
 * Ratios ("× bare Koa", targets, A/B) are medians of per-round ratios: round i of one scenario
 * against round i of the other, which cancels the machine's drift between rounds.
 *
 * Env: BENCH_ROUNDS (default 5), BENCH_SECONDS per round (default 3), BENCH_LOGIN_SECONDS (default 5),
 * BENCH_CONNECTIONS (default 50), BENCH_REDIS_URL (default: a redis-server of its own, bench/redis.ts), BENCH_ONLY
 * (comma-separated scenario names, `logins`, `login-timing`, `forgot-timing` and `mfa-cost` included; the baseline always
 * runs), BENCH_TIMING_SAMPLES (default 60),
 * BENCH_FORGOT_SAMPLES (default 300), BENCH_AUTH_PATH (default /auth/me; bench/scenarios.ts),
 * BENCH_WARMUP_SECONDS (unmeasured load per server before the rounds, default 1), BENCH_LOADGEN (wrk | autocannon), BENCH_PIN (0 to leave
 * processes unpinned),
 * BENCH_AB=<git ref> (A/B: the scenarios named in BENCH_AB_SCENARIOS, default admin-memory, also run on
 * that commit's tree, as `<name>@<ref>`, in the same rounds).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import { buildRef, compiledScript, compileServers, median, startServer } from './build';
import { benchRedis } from './redis';
import { loadGenerator, pinning, pinProcess, runLoad } from './load';
import { describeForgotTiming, measureForgotTiming } from './forgot-timing';
import { describeTiming, measureLoginTiming } from './login-timing';
import { describeMfaCost, type MfaCost } from './mfa-cost';
import { AUTH_PATH, BASELINE, SCENARIOS, type Ready, type Scenario, type Target } from './scenarios';

const ROOT = path.join(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** The login phase is measured once (not in alternating rounds): longer windows keep it steady. */
const LOGIN_SECONDS = Number(process.env.BENCH_LOGIN_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** The throughput rounds' load generator and CPU placement (bench/load.ts). */
const GENERATOR = loadGenerator();
const PIN = pinning();
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
/** Set by main() before any server starts (bench/redis.ts). */
let REDIS_URL = '';

/** A scenario as this run starts it: from this tree, or (A/B) from another commit's. */
interface Planned {
  readonly name: string;
  readonly scenario: Scenario;
  readonly root: string;
}

function start(p: Planned): Promise<{ child: ChildProcess; ready: Ready }> {
  return startServer({
    root: p.root,
    script: p.scenario.script,
    args: p.scenario.args,
    env: { ...p.scenario.env, REDIS_URL },
    name: p.name,
  });
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** User + system CPU seconds of a process (all its threads) so far; null where /proc is not available. */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm) ": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
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

interface Sample {
  rps: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Server CPU µs per request served, null without /proc. */
  cpuUs: number | null;
  redisPerRequest: number | null;
}

async function drive(s: Scenario, ready: Ready, pid: number | undefined, redis: Redis | null): Promise<Sample> {
  const before = redis ? await redisCalls(redis) : 0;
  const cpuBefore = cpuSeconds(pid);
  const result = await runLoad({
    port: ready.port,
    request: s.request(ready),
    connections: CONNECTIONS,
    seconds: SECONDS,
    generator: GENERATOR,
    cpu: PIN ? 1 : null,
  });
  const cpuAfter = cpuSeconds(pid);
  // The requests still in flight when the generator stops finish now: their Redis commands count
  // here, not in the next scenario's round.
  if (redis) await new Promise((r) => setTimeout(r, 150));
  const after = redis ? await redisCalls(redis) : 0;
  const requests = result.requests;
  return {
    rps: result.rps,
    p99: result.p99Ms,
    requests,
    non2xx: result.failures,
    cpuUs: cpuBefore !== null && cpuAfter !== null && requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / requests : null,
    redisPerRequest: redis && requests > 0 ? (after - before) / requests : null,
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
async function loginPhase(planned: Planned): Promise<LoginFigures> {
  const hash = bcrypt.hashSync('admin123', 10);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 3000) {
    bcrypt.compareSync('admin123', hash);
    n++;
  }
  const singleThread = n / ((performance.now() - t0) / 1000);
  const { child, ready } = await start(planned);
  try {
    const base = `http://127.0.0.1:${ready.port}`;
    const cfg = (await (await fetch(`${base}/auth/getConfig`)).json()) as { data: { publicKey: string } };
    const password = publicEncrypt(
      { key: cfg.data.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from('admin123'),
    ).toString('base64');
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

interface Row {
  scenario: string;
  description: string;
  medianRps: number;
  ratioToBaseline: number;
  cpuUsPerRequest: number | null;
  cpuRatioToBaseline: number | null;
  p99Ms: number;
  redisCommandsPerRequest: number | null;
}

/** This run's scenarios: BENCH_ONLY's (the baseline always), each followed by its A/B variant if any. */
function plan(): { planned: Planned[]; only: string[] | undefined } {
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const chosen = SCENARIOS.filter((s) => !only || only.includes(s.name) || s.name === BASELINE);
  const abRef = process.env.BENCH_AB;
  const abNames = (process.env.BENCH_AB_SCENARIOS ?? 'admin-memory').split(',').map((s) => s.trim());
  const abRoot = abRef ? buildRef(ROOT, abRef) : null;
  const planned: Planned[] = [];
  for (const s of chosen) {
    planned.push({ name: s.name, scenario: s, root: ROOT });
    if (abRoot !== null && abNames.includes(s.name)) planned.push({ name: `${s.name}@${abRef}`, scenario: s, root: abRoot });
  }
  return { planned, only };
}

async function measureRounds(planned: readonly Planned[]): Promise<Map<string, Sample[]>> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const running = new Map<string, { child: ChildProcess; ready: Ready }>();
  const samples = new Map<string, Sample[]>();
  try {
    for (const p of planned) {
      const r = await start(p);
      if (PIN && r.child.pid !== undefined) pinProcess(r.child.pid, 0);
      running.set(p.name, r);
    }
    // One unmeasured second per server first: the first round would otherwise include its JIT warm-up.
    for (const p of planned) {
      const r = running.get(p.name) as { child: ChildProcess; ready: Ready };
      await runLoad({
        port: r.ready.port,
        request: p.scenario.request(r.ready),
        connections: CONNECTIONS,
        seconds: WARMUP_SECONDS,
        generator: GENERATOR,
        cpu: PIN ? 1 : null,
      });
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const p of planned) {
        const r = running.get(p.name) as { child: ChildProcess; ready: Ready };
        const sample = await drive(p.scenario, r.ready, r.child.pid, p.scenario.usesRedis ? redis : null);
        if (sample.non2xx > 0) throw new Error(`${p.name}: ${sample.non2xx} non-2xx responses or errors`);
        samples.set(p.name, [...(samples.get(p.name) ?? []), sample]);
        const cpu = sample.cpuUs === null ? '' : `, ${sample.cpuUs.toFixed(1)} µs CPU/req`;
        process.stderr.write(`round ${round} ${p.name}: ${sample.rps.toFixed(0)} req/s${cpu}, p99 ${sample.p99} ms\n`);
      }
    }
  } finally {
    // Wait for the servers to exit before the bench's Redis stops (no reconnect noise on stderr).
    await Promise.all(
      [...running.values()].map(
        ({ child }) =>
          new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill()))),
      ),
    );
    redis.disconnect();
  }
  return samples;
}

/**
 * A ratio between two scenarios of this run: the median over rounds of the per-round ratio (round i
 * of one against round i of the other), which cancels the machine's drift between rounds.
 */
function pairedRatio(a: readonly Sample[], b: readonly Sample[], metric: 'rps' | 'cpuUs'): number | null {
  const ratios = perRoundRatios(a, b, metric);
  return ratios === null ? null : median(ratios);
}

function perRoundRatios(a: readonly Sample[], b: readonly Sample[], metric: 'rps' | 'cpuUs'): number[] | null {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = (a[i] as Sample)[metric];
    const y = (b[i] as Sample)[metric];
    if (x === null || y === null || y === 0) return null;
    ratios.push(x / y);
  }
  return ratios.length === 0 ? null : ratios;
}

/** The middle half of the per-round ratios ("0.91–0.97"): how far one run's ratio can be trusted. */
function quartiles(ratios: readonly number[]): string {
  const s = [...ratios].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))] as number;
  return `${at(0.25).toFixed(3)}–${at(0.75).toFixed(3)}`;
}

function rowsOf(planned: readonly Planned[], samples: Map<string, Sample[]>): Row[] {
  const base = samples.get(BASELINE) ?? [];
  return planned.map((p) => {
    const xs = samples.get(p.name) ?? [];
    const cpu = xs.every((x) => x.cpuUs !== null) ? median(xs.map((x) => x.cpuUs as number)) : null;
    const cpuRatio = pairedRatio(xs, base, 'cpuUs');
    const rpr = p.scenario.usesRedis ? median(xs.map((x) => x.redisPerRequest ?? 0)) : null;
    return {
      scenario: p.name,
      description: p.scenario.description,
      medianRps: Math.round(median(xs.map((x) => x.rps))),
      ratioToBaseline: +(pairedRatio(xs, base, 'rps') ?? 0).toFixed(3),
      cpuUsPerRequest: cpu === null ? null : +cpu.toFixed(1),
      cpuRatioToBaseline: cpuRatio === null ? null : +cpuRatio.toFixed(3),
      p99Ms: +median(xs.map((x) => x.p99)).toFixed(1),
      redisCommandsPerRequest: rpr === null ? null : +rpr.toFixed(3),
    };
  });
}

function tableOf(rows: readonly Row[]): string {
  const dash = (v: number | null, digits: number) => (v === null ? '-' : v.toFixed(digits));
  return [
    '| scenario | req/s | × bare Koa | CPU µs/req | × bare Koa CPU | p99 ms | Redis cmds/req |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.medianRps} | ${r.ratioToBaseline.toFixed(2)} | ` +
        `${dash(r.cpuUsPerRequest, 1)} | ${dash(r.cpuRatioToBaseline, 2)} | ${r.p99Ms} | ` +
        `${dash(r.redisCommandsPerRequest, 3)} |`,
    ),
  ].join('\n');
}

/** One line per target of each scenario that ran (and whose comparison scenario ran). */
function targetLines(planned: readonly Planned[], rows: readonly Row[], samples: Map<string, Sample[]>): string[] {
  const byName = new Map(rows.map((r) => [r.scenario, r]));
  const lines: string[] = [];
  const describe = (row: Row, t: Target): string | null => {
    const vs = byName.get(t.vs ?? BASELINE);
    let value: number | null;
    let what: string;
    if (t.metric === 'redis') {
      value = row.redisCommandsPerRequest;
      what = 'Redis commands per request';
    } else if (vs === undefined) {
      return null;
    } else {
      value = pairedRatio(samples.get(row.scenario) ?? [], samples.get(vs.scenario) ?? [], t.metric === 'rps' ? 'rps' : 'cpuUs');
      what = t.metric === 'rps' ? `req/s vs ${vs.scenario}` : `CPU per request vs ${vs.scenario}`;
    }
    if (value === null) return null;
    const met = (t.min === undefined || value >= t.min) && (t.max === undefined || value <= t.max);
    const bound = [t.min !== undefined ? `≥ ${t.min}` : '', t.max !== undefined ? `≤ ${t.max}` : ''].filter(Boolean).join(', ');
    const shown = t.metric === 'redis' ? value.toFixed(3) : `${value.toFixed(2)}×`;
    return `${row.scenario} ${what}: ${shown} (target ${bound}) ${met ? 'met' : 'NOT MET'}`;
  };
  for (const p of planned) {
    const row = byName.get(p.name);
    if (row === undefined || p.name !== p.scenario.name) continue; // A/B variants are compared, not judged
    for (const t of p.scenario.targets ?? []) {
      const line = describe(row, t);
      if (line !== null) lines.push(line);
    }
  }
  return lines;
}

/** For scale: the full stack against the thin floors and the peer, and each A/B variant against its original. */
function contextLines(planned: readonly Planned[], samples: Map<string, Sample[]>): string[] {
  const lines: string[] = [];
  const pair = (a: string, b: string, label: string) => {
    const x = samples.get(a);
    const y = samples.get(b);
    if (!x || !y) return;
    const rps = perRoundRatios(x, y, 'rps') ?? [];
    const cpu = perRoundRatios(x, y, 'cpuUs');
    const cpuText = cpu === null ? '' : `, CPU/req ${median(cpu).toFixed(3)}× (middle half of rounds ${quartiles(cpu)})`;
    lines.push(`${label}: req/s ${median(rps).toFixed(3)}× (${quartiles(rps)})${cpuText}`);
  };
  pair('admin-memory', 'thin-memory', 'admin-memory vs the thin in-memory floor');
  pair('admin-redis', 'thin-redis', 'admin-redis vs the thin Redis floor');
  pair('admin-redis', 'express-passport', 'admin-redis vs the Express/Passport peer');
  pair('admin-redis-cache', 'express-passport', 'admin-redis-cache vs the Express/Passport peer');
  for (const p of planned) if (p.name !== p.scenario.name) pair(p.scenario.name, p.name, `A/B ${p.scenario.name} (this tree) vs ${p.name}`);
  return lines;
}

/** bench/mfa-cost.ts, compiled (compileServers), forked with this run's Redis; its figures come back over IPC. */
function runMfaCost(): Promise<MfaCost> {
  return new Promise((resolve, reject) => {
    const child = fork(compiledScript(ROOT, 'bench/mfa-cost.ts'), [], {
      cwd: ROOT,
      env: { ...process.env, BENCH_REDIS_URL: REDIS_URL },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let figures: MfaCost | null = null;
    child.once('message', (m) => (figures = m as MfaCost));
    child.once('exit', (code) => (figures !== null ? resolve(figures) : reject(new Error(`bench/mfa-cost.ts exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const { planned, only } = plan();
  compileServers(ROOT);
  const redis = await benchRedis();
  REDIS_URL = redis.url;
  // Redis is the servers' backing service, not the server under test: it shares the generator's CPU.
  if (PIN && redis.pid !== undefined) pinProcess(redis.pid, 1);
  console.log(`Redis: ${redis.description}${PIN && redis.pid !== undefined ? ', on CPU 1' : ''}`);
  console.log(
    `Load: ${GENERATOR}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s; ` +
      `${PIN ? 'servers on CPU 0, the generator on CPU 1' : 'not pinned'}`,
  );
  try {
    await measureAndReport(planned, only);
  } finally {
    redis.stop();
  }
}

async function measureAndReport(planned: readonly Planned[], only: string[] | undefined): Promise<void> {
  const samples = await measureRounds(planned);
  const rows = rowsOf(planned, samples);
  console.log(`\n${tableOf(rows)}\n`);
  const targets = [...targetLines(planned, rows, samples), ...contextLines(planned, samples)];
  let logins: LoginFigures | null = null;
  if (!only || only.includes('logins')) {
    const memory = SCENARIOS.find((x) => x.name === 'admin-memory') as Scenario;
    logins = await loginPhase({ name: memory.name, scenario: memory, root: ROOT });
    console.log(
      `logins: ${logins.loginsPerSecond}/s vs ${logins.singleThreadComparesPerSecond} single-thread bcryptjs compares/s (cost 10)`,
    );
    console.log(`authenticated p99: ${logins.authP99QuietMs} ms alone, ${logins.authP99DuringStormMs} ms during a login storm\n`);
    targets.push(`logins: ${logins.loginRatioToSingleThread}× the single-thread bcryptjs rate (target ≥ 1.8)`);
    targets.push(`authenticated p99 during a login storm: ${logins.p99Ratio}× its p99 without (target ≤ 2)`);
  }
  console.log(targets.map((t) => `- ${t}`).join('\n'));
  fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  // Login timing (unknown user vs wrong password): after the throughput rounds, on a quiet machine.
  const timing = !only || only.includes('login-timing') ? await measureLoginTiming(Number(process.env.BENCH_TIMING_SAMPLES ?? 60)) : null;
  if (timing) console.log(`- ${describeTiming(timing)}`);
  // Forgot-password timing (known vs unknown address), in the same run, in process on the in-memory store: a few seconds.
  const forgot =
    !only || only.includes('forgot-timing') ? await measureForgotTiming(Number(process.env.BENCH_FORGOT_SAMPLES ?? 300)) : null;
  if (forgot) console.log(`- ${describeForgotTiming(forgot)}`);
  // Second-factor costs (bench/mfa-cost.ts): compiled, in a process of its own, on the in-memory store and this run's Redis.
  const mfa = !only || only.includes('mfa-cost') ? await runMfaCost() : null;
  if (mfa)
    console.log(
      describeMfaCost(mfa)
        .map((line) => `- ${line}`)
        .join('\n'),
    );
  fs.writeFileSync(
    path.join(ROOT, 'bench/results/latest.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        rounds: ROUNDS,
        secondsPerRound: SECONDS,
        connections: CONNECTIONS,
        abRef: process.env.BENCH_AB ?? null,
        rows,
        logins,
        targets,
        loginTiming: timing,
        forgotTiming: forgot,
        mfaCost: mfa,
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
