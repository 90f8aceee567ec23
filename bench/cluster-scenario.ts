/**
 * `admin-cluster`: the admin app on a Redis Cluster of 3 masters and 3 replicas (started here from
 * the test support's test/support/redis-cluster.ts: redis-server + redis-cli on free loopback
 * ports, own process groups, removed at exit), serving GET /auth/me; req/s, and Redis commands per
 * request from INFO commandstats summed over every master (connection set-up and admin commands
 * not counted; the read is one MGET, which no script runs inside).
 *
 * - In bench/run.ts's SCENARIOS table: `clusterScenario` is a row of it plus one field, `backend`,
 *   which starts the scenario's own Redis before its server. Three edits let run.ts use it: add
 *   `readonly backend?: () => Promise<ScenarioBackend>` to `Scenario`; in `start()`, call it
 *   first and add its `env` to the server's environment (after REDIS_URL); in `drive()`, count
 *   with its `redisCalls()` instead of the bench Redis when it is there, and `stop()` it with the
 *   servers. Its server is compiled with the others (it lives in bench/servers/).
 * - Alone: `npx tsx bench/cluster-scenario.ts` compiles the servers as run.ts does and runs
 *   admin-redis (a redis-server of its own) and admin-cluster on the same GET /auth/me in
 * alternating rounds (bench/load.ts: wrk where installed, -c 50, servers pinned to CPU 0), printing median req/s, their ratio, and Redis
 * commands
 *   per request. Env: BENCH_ROUNDS (5), BENCH_SECONDS (3), BENCH_CONNECTIONS (50).
 * Needs redis-server and redis-cli.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { RedisCluster } from '../test/support/redis-cluster';
import { compileServers, median, startServer, type Ready } from './build';
import { loadGenerator, pinning, pinProcess, runLoad } from './load';
import { ask } from '../test/support/redis-processes';
import { DisposableRedis } from '../test/support/redis-server';

const ROOT = path.join(__dirname, '..');
const PATH = '/auth/me';
/** As bench/run.ts: wrk where installed, the servers on CPU 0 and the generator on CPU 1 (the cluster's processes unpinned). */
const GENERATOR = loadGenerator();
const PIN = pinning();
const PASSWORD = 'bench-cluster-pw';
/** Connection set-up, slot-map refreshes, health and the counting itself: not the requests' commands. */
const ADMIN = /^(auth|hello|info|config|cluster|client|command|select|readonly|readwrite|ping|replconf)(\||$)/;

/** A Redis of a scenario's own: the environment that points its server at it, and its command counter. */
export interface ScenarioBackend {
  readonly env: Readonly<Record<string, string>>;
  /** Commands the servers sent so far, summed over every master. */
  redisCalls(): Promise<number>;
  stop(): Promise<void>;
}

/** Sums the data commands of INFO commandstats. */
function dataCalls(info: string): number {
  let n = 0;
  for (const [, name, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (!ADMIN.test(name as string)) n += Number(calls);
  return n;
}

/** A 3-master / 3-replica cluster for the bench; its seeds and password go to the server as SVC_REDIS_NODES / SVC_REDIS_PASSWORD. */
export async function startBenchCluster(): Promise<ScenarioBackend> {
  const cluster = await RedisCluster.start({ password: PASSWORD });
  return {
    env: { SVC_REDIS_NODES: cluster.seedList, SVC_REDIS_PASSWORD: PASSWORD },
    redisCalls: async () => {
      let n = 0;
      for (const m of await cluster.masters()) n += dataCalls(await ask(m.port, PASSWORD, (r) => r.info('commandstats')));
      return n;
    },
    stop: () => cluster.stop(),
  };
}

/** A row of bench/run.ts's SCENARIOS (with `backend`, see above). */
export const clusterScenario = {
  name: 'admin-cluster',
  description: `admin ${PATH}, full stack, Redis Cluster (3 masters, 3 replicas)`,
  script: 'bench/servers/authguard-cluster.ts',
  usesRedis: true,
  backend: startBenchCluster,
  request: (r: Ready) => ({ path: PATH, headers: { authorization: `Bearer ${r.token}` } }),
  targets: [{ metric: 'redis', min: 0.99, max: 1.01 }],
} as const;

interface Row {
  readonly name: string;
  readonly server: { child: ChildProcess; ready: Ready };
  redisCalls(): Promise<number>;
  readonly rps: number[];
  readonly perRequest: number[];
}

async function round(row: Row): Promise<void> {
  const before = await row.redisCalls();
  const result = await runLoad({
    port: row.server.ready.port,
    request: { path: PATH, headers: { authorization: `Bearer ${row.server.ready.token}` } },
    connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
    seconds: Number(process.env.BENCH_SECONDS ?? 3),
    generator: GENERATOR,
    cpu: PIN ? 1 : null,
  });
  await new Promise((r) => setTimeout(r, 150)); // the requests still in flight finish
  const after = await row.redisCalls();
  if (result.failures > 0) throw new Error(`${row.name}: ${result.failures} non-2xx answers or errors`);
  row.rps.push(result.rps);
  row.perRequest.push((after - before) / result.requests);
  process.stderr.write(
    `${row.name}: ${result.rps.toFixed(0)} req/s, ${((after - before) / result.requests).toFixed(3)} Redis commands/req\n`,
  );
}

async function main(): Promise<void> {
  compileServers(ROOT);
  const standalone = await DisposableRedis.create();
  const cluster = await startBenchCluster();
  const servers: ChildProcess[] = [];
  try {
    const redisServer = await startServer({
      root: ROOT,
      script: 'bench/servers/authguard.ts',
      args: ['redis'],
      env: { REDIS_URL: standalone.url },
    });
    const clusterServer = await startServer({ root: ROOT, script: clusterScenario.script, args: [], env: { ...cluster.env } });
    servers.push(redisServer.child, clusterServer.child);
    if (PIN) for (const c of servers) if (c.pid !== undefined) pinProcess(c.pid, 0);
    const rows: Row[] = [
      {
        name: 'admin-redis',
        server: redisServer,
        redisCalls: async () => dataCalls(await ask(standalone.port, undefined, (r) => r.info('commandstats'))),
        rps: [],
        perRequest: [],
      },
      { name: clusterScenario.name, server: clusterServer, redisCalls: () => cluster.redisCalls(), rps: [], perRequest: [] },
    ];
    for (let i = 1; i <= Number(process.env.BENCH_ROUNDS ?? 5); i++) for (const row of rows) await round(row);
    const base = median(rows[0]?.rps ?? []);
    console.log(`\n| scenario (GET ${PATH}) | median req/s | × admin-redis | Redis cmds/req |\n|---|---|---|---|`);
    for (const r of rows)
      console.log(
        `| ${r.name} | ${Math.round(median(r.rps))} | ${(median(r.rps) / base).toFixed(2)} | ${median(r.perRequest).toFixed(3)} |`,
      );
  } finally {
    for (const c of servers) c.kill();
    await cluster.stop();
    await standalone.kill();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
