/**
 * What svc.redis.wait-replicas costs: the latency of an acknowledged write without WAIT and with
 * `WAIT 1`, sequential so each sample is one write's full round trips; medians and p99s (ms).
 *   sentinel: a session create on a real master + replica + 3 Sentinels (loopback);
 *   cluster:  a key-value set (single key: the session scripts are not cluster-safe yet) on a real
 *             3-master / 3-replica cluster, where WAIT runs on every master.
 *
 *   npx tsx bench/replica-wait.ts [samples=2000] [sentinel|cluster|both=both]
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createRedisClient } from '../src/adapters/redis/redis-client';
import { RedisKeyValueStore } from '../src/adapters/redis/key-value-store';
import { withReplicaWait } from '../src/adapters/redis/replica-wait';
import { RedisSessionStore } from '../src/adapters/redis/session-store';
import type { KeyValueStore } from '../src/application/ports/key-value-store';
import type { SessionStore } from '../src/application/ports/session-store';
import type { SessionRecord } from '../src/domain/session';
import { RedisCluster } from '../test/support/redis-cluster';
import { MASTER_NAME, SentinelTopology } from '../test/support/redis-sentinel';

const samples = Number(process.argv[2] ?? 2000);
const which = process.argv[3] ?? 'both';
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] as number;

async function time(store: SessionStore, label: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const now = Date.now();
    const userId = String(i % 50);
    const record: SessionRecord = {
      v: 1,
      loginType: 'admin',
      tokenId: `${label}-${i}`,
      createdAt: now,
      expiresAt: now + 60_000,
      principal: { userId, username: `u${userId}`, roles: [], permissions: [] },
      client: { ip: '127.0.0.1', device: 'default' },
      attrs: {},
    };
    const start = performance.now();
    await store.create({
      loginType: 'admin',
      tokenHash: createHash('sha256').update(`${label}-${i}`).digest('hex'),
      record,
      retentionMs: 60_000,
      admission: { kind: 'add' },
      now,
    });
    out.push(performance.now() - start);
  }
  return out;
}

async function timeSets(store: KeyValueStore, label: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await store.set(`${label}-${i}`, 'v', 60_000);
    out.push(performance.now() - start);
  }
  return out;
}

const row = (name: string, xs: number[]) => `${name.padEnd(20)} median ${pct(xs, 0.5).toFixed(3)} ms   p99 ${pct(xs, 0.99).toFixed(3)} ms`;

async function sentinel(): Promise<void> {
  const topology = await SentinelTopology.start();
  const client = createRedisClient({ mode: 'sentinel', sentinels: topology.sentinels, masterName: MASTER_NAME });
  try {
    const plain = new RedisSessionStore(client, 'bench:plain:');
    const waited = withReplicaWait<SessionStore>(new RedisSessionStore(client, 'bench:wait:'), ['create'], client, {
      replicas: 1,
      timeoutMs: 2000,
    });
    await time(plain, 'warm');
    const a = await time(plain, 'plain');
    const b = await time(waited, 'wait');
    console.log(`sentinel (master + replica): session create, ${samples} sequential writes each:`);
    console.log(row('no WAIT', a));
    console.log(row('WAIT 1', b));
    console.log(`WAIT adds ${(pct(b, 0.5) - pct(a, 0.5)).toFixed(3)} ms at the median`);
  } finally {
    client.disconnect();
    topology.stop();
  }
}

async function cluster(): Promise<void> {
  const topology = await RedisCluster.start();
  const client = createRedisClient({ mode: 'cluster', nodes: topology.seeds });
  try {
    await new Promise((r) => client.once('ready', r));
    const plain = new RedisKeyValueStore(client, 'bench:plain:');
    const waited = withReplicaWait<KeyValueStore>(new RedisKeyValueStore(client, 'bench:wait:'), ['set'], client, {
      replicas: 1,
      timeoutMs: 2000,
    });
    await timeSets(plain, 'warm');
    const a = await timeSets(plain, 'plain');
    const b = await timeSets(waited, 'wait');
    console.log(`cluster (3 masters + 3 replicas): key-value set, ${samples} sequential writes each:`);
    console.log(row('no WAIT', a));
    console.log(row('WAIT 1 x 3 masters', b));
    console.log(`WAIT adds ${(pct(b, 0.5) - pct(a, 0.5)).toFixed(3)} ms at the median`);
  } finally {
    client.disconnect();
    await topology.stop();
  }
}

async function main(): Promise<void> {
  if (which === 'sentinel' || which === 'both') await sentinel();
  if (which === 'cluster' || which === 'both') await cluster();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
