/**
 * The load generator of the bench's throughput rounds, and where each process runs.
 *
 * - wrk (C, one thread, epoll; Debian package `wrk`) when it is installed, else autocannon (Node).
 *   autocannon spends several times the CPU per request of the servers it drives: on two shared
 *   cores it caps the fastest servers (bare Koa read ~6.6× the Express peer under it, not its
 *   real ratio), so every ratio near the top is compressed. wrk's cost per request is a fraction
 *   of any server's here, so req/s measures the server. BENCH_LOADGEN=autocannon|wrk forces one.
 * - Pinning (BENCH_PIN, default on with ≥ 2 CPUs and `taskset`): during the rounds every server
 *   runs on CPU 0 and the load generator on CPU 1, so a server has one core of its own and never
 *   shares it with the generator. The bench's own redis-server, the servers' backing service, runs
 *   on CPU 1 beside the generator (a shared Redis named by BENCH_REDIS_URL is left where it is).
 *   Servers are single-threaded Node processes, so one core is what each could use anyway; the
 *   login phase (worker threads) is not pinned.
 *
 * Requests rewritten per request (`setupRequest`: a fresh nonce and signature) are made in
 * advance for wrk: the headers of each request, one line each, read by a Lua script that sends
 * them in order; the body must be the same for all.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { RequestSpec } from './scenarios';

export type LoadGenerator = 'wrk' | 'autocannon';

const has = (cmd: string, args: string[]): boolean => spawnSync(cmd, args, { stdio: 'ignore' }).error === undefined;

export function loadGenerator(): LoadGenerator {
  const forced = process.env.BENCH_LOADGEN;
  if (forced === 'wrk' || forced === 'autocannon') return forced;
  if (forced) throw new Error(`BENCH_LOADGEN must be wrk or autocannon, not ${forced}`);
  return has('wrk', ['--version']) ? 'wrk' : 'autocannon';
}

/** Whether servers and the generator are pinned to CPUs of their own (see the file's comment). */
export function pinning(): boolean {
  const v = process.env.BENCH_PIN;
  if (v === '0' || v === 'false') return false;
  const able = os.cpus().length >= 2 && has('taskset', ['-V']);
  if ((v === '1' || v === 'true') && !able) throw new Error('BENCH_PIN: needs taskset and at least two CPUs');
  return able;
}

/** Moves a process and all its threads to one CPU. */
export function pinProcess(pid: number, cpu: number): void {
  const r = spawnSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`taskset could not pin process ${pid} to CPU ${cpu}`);
}

export interface LoadResult {
  rps: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx answers plus socket errors. */
  failures: number;
}

export interface LoadOptions {
  readonly port: number;
  readonly request: RequestSpec;
  readonly connections: number;
  readonly seconds: number;
  readonly generator: LoadGenerator;
  /** CPU the generator runs on, or null for anywhere. */
  readonly cpu: number | null;
}

export function runLoad(o: LoadOptions): Promise<LoadResult> {
  return o.generator === 'wrk' ? runWrk(o) : runAutocannon(o);
}

async function runAutocannon(o: LoadOptions): Promise<LoadResult> {
  // autocannon runs in this process: pinning it pins the bench runner.
  if (o.cpu !== null) pinProcess(process.pid, o.cpu);
  const req = o.request;
  const result = await autocannon({
    url: `http://127.0.0.1:${o.port}${req.path}`,
    method: req.method ?? 'GET',
    headers: req.headers,
    body: req.body,
    ...(req.setupRequest ? { requests: [{ method: req.method ?? 'GET', path: req.path, setupRequest: req.setupRequest as never }] } : {}),
    connections: o.connections,
    duration: o.seconds,
  });
  return {
    rps: result.requests.average,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors,
  };
}

/** A Lua string literal (the values here are printable ASCII; anything else is refused). */
function lua(s: string): string {
  if (!/^[\x20-\x7e]*$/.test(s)) throw new Error('bench: wrk requests must be printable ASCII');
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Pre-made requests per second of a round (more than any server here answers on one core). */
const PREMADE_PER_SECOND = 40_000;

async function runWrk(o: LoadOptions): Promise<LoadResult> {
  const req = o.request;
  const method = req.method ?? 'GET';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-'));
  try {
    const lines: string[] = [`wrk.method = ${lua(method)}`, `wrk.path = ${lua(req.path)}`];
    for (const [k, v] of Object.entries(req.headers ?? {})) lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`);
    if (req.body !== undefined) lines.push(`wrk.body = ${lua(req.body)}`);
    if (req.setupRequest) {
      const count = Math.ceil(PREMADE_PER_SECOND * o.seconds);
      let body: string | undefined;
      const out: string[] = [];
      for (let i = 0; i < count; i++) {
        const r = req.setupRequest({ headers: { ...req.headers }, body: req.body });
        if (i === 0) body = r.body;
        else if (r.body !== body) throw new Error('bench: wrk needs the same body for every request');
        out.push(
          Object.entries(r.headers ?? {})
            .map(([k, v]) => `${k}: ${v}`)
            .join('\t'),
        );
      }
      const file = path.join(dir, 'headers.txt');
      fs.writeFileSync(file, `${out.join('\n')}\n`);
      const bodyText = body ?? '';
      lines.push(
        `local head = ${lua(`${method} ${req.path} HTTP/1.1`)} .. "\\r\\n"`,
        `local tail = ${lua(`Content-Length: ${Buffer.byteLength(bodyText)}`)} .. "\\r\\n\\r\\n" .. ${lua(bodyText)}`,
        'local reqs = {}',
        'local i = 0',
        'function init(args)',
        `  local host = "Host: " .. wrk.host .. ":" .. wrk.port .. "\\r\\n"`,
        `  for line in io.lines(${lua(file)}) do reqs[#reqs + 1] = head .. host .. line:gsub("\\t", "\\r\\n") .. "\\r\\n" .. tail end`,
        'end',
        'function request()',
        '  i = i + 1',
        // Out of pre-made requests: send the last one again; its replay is refused and counted.
        '  return reqs[math.min(i, #reqs)]',
        'end',
      );
    }
    lines.push(
      'function done(summary, latency, requests)',
      '  local e = summary.errors',
      '  io.write(string.format("\\nBENCH-RESULT %d %d %d %d %d\\n", summary.requests, ' +
        'summary.duration, latency:percentile(99), e.status, e.connect + e.read + e.write + e.timeout))',
      'end',
    );
    const script = path.join(dir, 'load.lua');
    fs.writeFileSync(script, `${lines.join('\n')}\n`);
    const args = ['-t1', `-c${o.connections}`, `-d${o.seconds}s`, '-s', script, `http://127.0.0.1:${o.port}${req.path}`];
    const [cmd, argv] = o.cpu === null ? ['wrk', args] : ['taskset', ['-c', String(o.cpu), 'wrk', ...args]];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
    });
    const m = /BENCH-RESULT (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(output);
    if (!m) throw new Error(`bench: no result from wrk: ${output}`);
    const [requests, durationUs, p99Us, status, socket] = m.slice(1).map(Number) as [number, number, number, number, number];
    return { rps: requests / (durationUs / 1e6), p99Ms: Math.round(p99Us / 100) / 10, requests, failures: status + socket };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
