/**
 * The multi-key KeyValueStore operations on Redis are one command each (one Lua script, one
 * round trip): watched with MONITOR, the client sends exactly one command for a setMany of three
 * keys or for a deleteIfEqualsAndSet, and the writes happen inside it. Nothing can come between
 * them, and no crash of the caller can stop half-way: there is no "half-way" on the wire.
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { sleep } from './fixture';

interface Seen {
  readonly command: string;
  readonly fromScript: boolean;
}

/** Runs `action` while MONITOR watches; returns the commands that named a key under `prefix`. */
async function watch(client: Redis, prefix: string, action: () => Promise<unknown>): Promise<Seen[]> {
  const base = client.duplicate();
  const monitor = await base.monitor();
  const seen: Seen[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (args.some((a) => a.startsWith(prefix))) seen.push({ command: String(args[0]).toLowerCase(), fromScript: source === 'lua' });
  });
  try {
    await sleep(20);
    await action();
    await sleep(100); // MONITOR delivers asynchronously
  } finally {
    monitor.disconnect();
    base.disconnect();
  }
  return seen;
}

describe('Redis KeyValueStore: multi-key operations are one round trip', function () {
  let client: Redis | undefined;
  let prefix = '';
  let store: RedisKeyValueStore;

  before(async function () {
    await requireRedis(this);
    client = createRedisClient(REDIS_URL);
  });
  after(async () => {
    await client?.quit();
  });
  beforeEach(() => {
    if (client === undefined) throw new Error('redis client not ready');
    prefix = testKeyPrefix('kv-atomic');
    store = new RedisKeyValueStore(client, prefix);
  });
  afterEach(async () => {
    if (client !== undefined) await deleteByPrefix(client, prefix);
  });

  const redis = (): Redis => {
    if (client === undefined) throw new Error('redis client not ready');
    return client;
  };

  it('setMany of three keys: one command from the client, the three SETs inside it, each key with its TTL', async () => {
    const entries = [
      { key: 'rt:web:h1', value: '{"userId":"1"}', ttlMs: 60_000 },
      { key: 'rtfam:web:f1', value: '{"refreshHash":"h1"}', ttlMs: 50_000 },
      { key: 'rtacc:web:a1', value: 'f1', ttlMs: 40_000 },
    ];
    const seen = await watch(redis(), prefix, () => store.setMany(entries));
    const sent = seen.filter((s) => !s.fromScript);
    assert.equal(sent.length, 1, `one round trip: ${JSON.stringify(seen)}`);
    assert.match(sent[0]?.command ?? '', /^eval(sha)?$/);
    assert.deepEqual(
      seen.filter((s) => s.fromScript).map((s) => s.command),
      ['set', 'set', 'set'],
    );
    for (const e of entries) {
      assert.equal(await redis().get(prefix + 'kv:' + e.key), e.value);
      const pttl = await redis().pttl(prefix + 'kv:' + e.key);
      assert.ok(pttl > e.ttlMs - 5_000 && pttl <= e.ttlMs, `${e.key} pttl ${pttl}`);
    }
  });

  it('deleteIfEqualsAndSet: one command from the client; the read, the delete and the write run inside it', async () => {
    await store.set('rt:web:h1', 'rec', 60_000);
    let won = false;
    const seen = await watch(redis(), prefix, async () => {
      won = await store.deleteIfEqualsAndSet('rt:web:h1', 'rec', { key: 'rtused:web:h1', value: 'used', ttlMs: 30_000 });
    });
    assert.equal(won, true);
    const sent = seen.filter((s) => !s.fromScript);
    assert.equal(sent.length, 1, `one round trip: ${JSON.stringify(seen)}`);
    assert.deepEqual(
      seen.filter((s) => s.fromScript).map((s) => s.command),
      ['get', 'del', 'set'],
    );
    assert.equal(await redis().exists(prefix + 'kv:rt:web:h1'), 0);
    const pttl = await redis().pttl(prefix + 'kv:rtused:web:h1');
    assert.ok(pttl > 25_000 && pttl <= 30_000, `pttl ${pttl}`);
  });

  it('the setMany script checks every argument before its first write: a bad one writes nothing', async () => {
    const run = (redis() as unknown as Record<string, ((...a: Array<string | number>) => Promise<unknown>) | undefined>).agKvSetMany;
    if (run === undefined) throw new Error('the store registered its script');
    const [k1, k2] = [prefix + 'kv:a', prefix + 'kv:b'];
    await assert.rejects(run.call(redis(), 2, k1, k2, 'v1', 1000, 'v2', 0), /bad ttl/);
    await assert.rejects(run.call(redis(), 2, k1, k2, 'v1', 1000, 'v2'), /a value and a ttl per key/);
    assert.equal(await redis().exists(k1, k2), 0);
  });
});
