/**
 * npm run bench:scale — the service at scale, against issue 30's goals (docs/performance.md#scale-issue-30-baseline).
 *
 * For each mode of SCALE_MODES (memory, standalone: a redis-server of its own, cluster: 3 masters of
 * its own; started here on free loopback ports and torn down after the mode), in this process, the
 * admin and web apps over HTTP on one store (bench/scale/stack.ts):
 *   1. (Redis) the keys a session leaves after each way it ends (bench/scale/lifecycle.ts);
 *   2. SCALE_LOGINS real logins over HTTP, with refresh tokens: bytes and keys per session (footprint.ts);
 *   3. for each size of SCALE_SIZES, in turn: the filler's sessions written through the store up to
 *      that size (fill.ts; bytes and keys per session: used_memory and DBSIZE deltas, or the heap
 *      after GC on the memory store), a walk of every key (the largest keys, MEMORY USAGE by space),
 *      GET /monitor/online pages p50/p99 (listing.ts), and one account with SCALE_USER_SESSIONS
 *      sessions: its own list, a replacing login, kick-all and logout-all (per-user.ts), each with
 *      the event loop's longest delay while it ran.
 * Prints one table per mode and a summary against the goals; writes bench/results/scale-<date>.json.
 *
 * Env: SCALE_SIZES (default 10000,100000; 1000000 works: about 8 GB of Redis memory on a cluster and
 * some 10 minutes per Redis mode on 2 cores), SCALE_MODES (default memory,standalone,cluster),
 * SCALE_LOGINS (default 1000), SCALE_USER_SESSIONS (default 10000; 0 skips the phase),
 * SCALE_SAMPLES per online-list request (default 50), SCALE_CENSUS (default 1; 0 skips the key walk).
 * Needs redis-server and redis-cli for the Redis modes, and node --expose-gc (the npm script passes it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { modeTable, summary } from './scale/report';
import { runMode, type ModeFigures, type Options } from './scale/run-mode';
import { writeDirectory, type Mode } from './scale/stack';

const list = (v: string | undefined, dflt: string) =>
  (v ?? dflt)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function options(): Omit<Options, 'directory'> {
  const sizes = list(process.env.SCALE_SIZES, '10000,100000').map(Number);
  if (sizes.some((s) => !Number.isInteger(s) || s < 1000) || sizes.some((s, i) => i > 0 && s <= (sizes[i - 1] as number)))
    throw new Error('SCALE_SIZES: increasing whole numbers, each at least 1000 (the deep page reaches 10,000 in)');
  const modes = list(process.env.SCALE_MODES, 'memory,standalone,cluster') as Mode[];
  for (const m of modes) if (!['memory', 'standalone', 'cluster'].includes(m)) throw new Error(`SCALE_MODES: unknown mode ${m}`);
  return {
    sizes,
    modes,
    logins: Number(process.env.SCALE_LOGINS ?? 1000),
    userSessions: Number(process.env.SCALE_USER_SESSIONS ?? 10_000),
    samples: Number(process.env.SCALE_SAMPLES ?? 50),
    census: process.env.SCALE_CENSUS !== '0',
  };
}

async function main(): Promise<void> {
  const o = options();
  const directory = writeDirectory(o.logins + 10);
  const started = Date.now();
  const results: ModeFigures[] = [];
  try {
    for (const mode of o.modes) results.push(await runMode(mode, { ...o, directory }));
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const sizes = o.sizes.map((s) => s.toLocaleString('en')).join(' / ');
  console.log(`\n## Scale (${sizes} sessions; ${os.cpus().length} × ${cpu}, Node ${process.version}; ${minutes} min)\n`);
  for (const m of results) console.log(`${modeTable(m)}\n`);
  console.log(summary(results));
  const out = path.join(__dirname, 'results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, `scale-${new Date().toISOString().slice(0, 10)}.json`);
  const machine = { cpus: os.cpus().length, cpu, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version };
  fs.writeFileSync(
    file,
    JSON.stringify({ date: new Date().toISOString(), machine, options: o, minutes: Number(minutes), modes: results }, null, 2),
  );
  console.log(`\n${path.relative(process.cwd(), file)} written`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130)); // the Redis processes go at exit
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
