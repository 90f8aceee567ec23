/**
 * Where a scenario's server spends its CPU, by part of the stack (our middleware, Koa, Node's HTTP,
 * the kernel): starts the scenario's server (bench/scenarios.ts, compiled) with V8's perf map,
 * warms it up, records on-CPU samples of the server with Linux `perf` during one round of load (bench/load.ts)
 * (kernel time included, time spent waiting for the CPU excluded, unlike V8's own profiler), and
 * attributes each sample to the innermost frame of ours on its stack.
 *
 *   npx tsx bench/profile.ts <scenario> [seconds=5]      e.g. npx tsx bench/profile.ts admin-memory
 *
 * Needs `perf` (linux-perf) and permission to record (root, or kernel.perf_event_paranoid <= 1).
 * Prints a table of shares and µs per request; keeps the recording in bench/.build/profiles/.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compileServers, startServer } from './build';
import { loadGenerator, pinning, pinProcess, runLoad } from './load';
import { benchRedis } from './redis';
import { SCENARIOS } from './scenarios';

const ROOT = path.join(__dirname, '..');
const FREQUENCY = 2999;

/** Whose frame a sample is charged to: the innermost frame matching one of these (ours first, then the framework). */
const OURS: ReadonlyArray<readonly [string, RegExp]> = [
  ['edge: request context (+ CheckPhaseStart)', /adapters\/koa\/middleware\.js:\d+:\d+.*|JS:\*?requestContext /],
  ['edge: access log (pino)', /access-log\.js|\/pino\/|sonic-boom|pino-logger\.js/],
  ['edge: request metrics', /request-metrics\.js|httpRequest /],
  ['edge: security headers', /hygiene\.js/],
  ['edge: XSS filter', /xss-filter\.js/],
  ['router', /@koa\/router|memo-router\.js|method-not-allowed\.js/],
  ['guards', /koa\/guards\.js/],
  ['authenticate + session manager', /authenticate\.js|session-manager\.js|session-token\.js|domain\/session\.js/],
  ['store timing (timed)', /timed-store\.js|storeCall |fast-histogram\.js|prom-client/],
  ['in-memory store', /adapters\/memory\//],
  ['Redis store + ioredis', /adapters\/redis\/|ioredis|redis-parser|store-guard\.js|denque|cluster-key-slot/],
  ['handler + responder', /koa\/routes\.js|responders\.js|routes\/|application\/users|adapters\/directory|zod/],
];
const FRAMEWORK: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'Koa (context, compose, respond)',
    /koa\/lib|koa-compose|delegates|on-finished|ee-first|statuses|content-type|type-is|mime|vary|encodeurl|parseurl/,
  ],
  ["Node's HTTP (parser, outgoing)", /_http_|llhttp|HTTPParser|node::.*Parser/],
];
/** Which middleware.js function: its factories are several edge steps. */
const MIDDLEWARE_JS: ReadonlyArray<readonly [string, RegExp]> = [
  ['edge: request context (+ CheckPhaseStart)', /requestContext|check-phase-start/],
  ['edge: error edge', /errorEdge/],
  ['edge: query limit', /queryParamLimit/],
  ['edge: JSON body', /jsonBody|hasBody/],
];

function owner(frames: readonly string[], dsos: readonly string[]): string {
  if (/kallsyms|vmlinux/.test(dsos[0] ?? '')) {
    const user = frames.find((_, i) => !/kallsyms|vmlinux/.test(dsos[i] ?? ''));
    const call = user?.match(/writev|write|read|epoll_wait|epoll_pwait|futex|accept|close/)?.[0];
    return call === undefined
      ? 'kernel: other'
      : `kernel: ${call.startsWith('write') ? 'socket writes' : call === 'read' ? 'socket reads' : call}`;
  }
  for (const f of frames) {
    if (/adapters\/koa\/middleware\.js/.test(f)) return MIDDLEWARE_JS.find(([, re]) => re.test(f))?.[0] ?? 'edge: other';
    if (/check-phase-start\.js/.test(f)) return 'edge: request context (+ CheckPhaseStart)';
    const o = OURS.find(([, re]) => re.test(f));
    if (o) return o[0];
  }
  for (const f of frames) {
    const o = FRAMEWORK.find(([, re]) => re.test(f));
    if (o) return o[0];
  }
  if (frames.some((f) => /Scavenge|MarkCompact|Heap::|Sweeper|Marking/.test(f))) return 'GC';
  return 'event loop, promises, streams, other';
}

async function main(): Promise<void> {
  const [name, secondsArg] = process.argv.slice(2);
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`usage: npx tsx bench/profile.ts <${SCENARIOS.map((s) => s.name).join('|')}> [seconds]`);
  if (spawnSync('perf', ['--version'], { stdio: 'ignore' }).status !== 0) throw new Error('bench/profile.ts needs perf (linux-perf)');
  const seconds = Number(secondsArg ?? 5);
  compileServers(ROOT);
  const redis = await benchRedis();
  const out = path.join(ROOT, 'bench/.build/profiles', `${name}-${Date.now()}.perf.data`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const { child, ready } = await startServer({
    root: ROOT,
    script: scenario.script,
    args: scenario.args,
    env: { ...scenario.env, REDIS_URL: redis.url },
    // No code-space compaction: moved code would leave stale addresses in the perf map.
    execArgv: ['--perf-basic-prof', '--interpreted-frames-native-stack', '--no-compact-code-space'],
  });
  try {
    const generator = loadGenerator();
    const pin = pinning();
    if (pin && child.pid !== undefined) pinProcess(child.pid, 0);
    if (pin && redis.pid !== undefined) pinProcess(redis.pid, 1);
    const load = (duration: number) =>
      runLoad({ port: ready.port, request: scenario.request(ready), connections: 50, seconds: duration, generator, cpu: pin ? 1 : null });
    await load(3); // warm-up: JIT, caches
    const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', String(FREQUENCY), '-g', '-p', String(child.pid), '-o', out], {
      stdio: 'ignore',
    });
    await new Promise((r) => setTimeout(r, 300));
    const result = await load(seconds);
    perf.kill('SIGINT');
    await new Promise((r) => perf.once('exit', r));
    report(out, result.requests, `${name}: ${Math.round(result.rps)} req/s (${generator}${pin ? ', server on CPU 0' : ''})`);
  } finally {
    child.kill();
    redis.stop();
  }
}

function report(file: string, requests: number, title: string): void {
  const text = execFileSync('perf', ['script', '-i', file, '-F', 'ip,sym,dso'], {
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const counts = new Map<string, number>();
  let samples = 0;
  for (const block of text.split('\n\n')) {
    const lines = block
      .split('\n')
      .map((l) => l.trim().replace(/^[0-9a-f]+\s+/, ''))
      .filter(Boolean);
    if (lines.length === 0) continue;
    const dsos = lines.map((l) => l.match(/\(([^()]*)\)$/)?.[1] ?? '');
    const frames = lines.map((l) => l.replace(/\s*\([^()]*\)$/, ''));
    const o = owner(frames, dsos);
    counts.set(o, (counts.get(o) ?? 0) + 1);
    samples++;
  }
  const usPerRequest = ((samples / FREQUENCY) * 1e6) / requests;
  console.log(`\n${title}, ${usPerRequest.toFixed(1)} µs CPU per request (${samples} samples at ${FREQUENCY} Hz, ${requests} requests)\n`);
  console.log('| where | share | µs/req |\n|---|---|---|');
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    console.log(`| ${k} | ${((n / samples) * 100).toFixed(1)} % | ${((n / samples) * usPerRequest).toFixed(1)} |`);
  }
  console.log(`\nrecording: ${path.relative(ROOT, file)} (perf report -i ... --no-children)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
