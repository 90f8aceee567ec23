/**
 * Refresh rotation survives a store that dies part-way through: issuing a refresh token writes its
 * family's one record or nothing, and a token that was taken is recorded in that record (its
 * rotation count moved on), so replaying it later is reuse (the family is revoked), never an
 * unknown token. Run on both backends.
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import type { AuthSettings } from '../../src/application/auth/auth-settings';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import { REUSE_GRACE_MS, RefreshTokenRegistry } from '../../src/application/session/refresh-token-registry';
import type { SessionManagers } from '../../src/application/session/session-manager';
import { FakeClock } from '../support/fake-clock';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';

/** Keys under a prefix, by SCAN. */
async function countByPrefix(client: Redis, prefix: string): Promise<number> {
  let [cursor, n] = ['0', 0];
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    [cursor, n] = [next, n + keys.length];
  } while (cursor !== '0');
  return n;
}

const READS = new Set<string | symbol>(['get']);

/** The store, dying (every later call rejects) once it has carried out `writes` write calls. */
function dyingAfter(kv: KeyValueStore, writes: number): KeyValueStore {
  let left = writes;
  return new Proxy(kv, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (left <= 0) throw new Error('store gone');
        if (!READS.has(prop)) left -= 1;
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

interface Backend {
  readonly kv: KeyValueStore;
  /** How many keys the store holds. */
  count(): Promise<number>;
  close(): Promise<void>;
}

const settings = { refreshTokenTtlSeconds: 2592000, refreshTokenAbsoluteTtlSeconds: 90 * 86400, timeZone: 'UTC' } as AuthSettings;
const managers = {} as SessionManagers; // revokeFamily is not called here

for (const kind of ['memory', 'redis'] as const) {
  describe(`refresh rotation against a store that dies part-way (${kind})`, () => {
    let client: Redis | undefined;
    let backend: Backend;
    let clock: FakeClock;

    before(async function () {
      if (kind === 'redis') {
        await requireRedis(this);
        client = createRedisClient(REDIS_URL);
      }
    });
    after(async () => {
      await client?.quit();
    });
    beforeEach(() => {
      clock = new FakeClock(Date.now());
      if (client === undefined) {
        const mem = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
        backend = { kv: mem.kv, count: async () => mem.kv.size(), close: () => mem.close() };
      } else {
        const redis = client;
        const prefix = testKeyPrefix('rt-atomic');
        backend = {
          kv: new RedisKeyValueStore(redis, prefix),
          count: () => countByPrefix(redis, prefix),
          close: () => deleteByPrefix(redis, prefix),
        };
      }
    });
    afterEach(async () => {
      await backend.close();
    });

    const registryOn = (kv: KeyValueStore) => new RefreshTokenRegistry(kv, settings, clock, managers);

    it('issuing writes one record per family, or nothing', async () => {
      for (const writes of [0, 1]) {
        const before = await backend.count();
        const registry = registryOn(dyingAfter(backend.kv, writes));
        const family = registry.newFamily();
        let token: string | null = null;
        try {
          token = await registry.issue('web', 'u1', family, `access-${writes}`);
        } catch {
          // the store died before the write
        }
        const added = (await backend.count()) - before;
        assert.equal(added, token === null ? 0 : 1, `store alive for ${writes} writes: ${added} keys written`);
        if (token !== null) assert.equal((await registryOn(backend.kv).consume('web', token)).kind, 'ok');
      }
    });

    it('a rotation whose completion never came leaves the family unusable but its rotated token still reads as reused', async () => {
      const registry = registryOn(backend.kv);
      const family = registry.newFamily();
      const token = await registry.issue('web', 'u1', family, 'access-1');
      const taken = await registry.consume('web', token);
      assert.equal(taken.kind, 'ok');
      const dead = registryOn(dyingAfter(backend.kv, 0));
      if (taken.kind === 'ok') await assert.rejects(dead.complete('web', family, taken.rotation, 'access-2'));
      assert.deepEqual(await registry.consume('web', token), { kind: 'concurrent', family });
      clock.advance(REUSE_GRACE_MS);
      assert.deepEqual(await registry.consume('web', token), { kind: 'reused', family });
      assert.equal(await backend.count(), 1, 'one key for the family');
    });

    it('a token taken just before the store died reads as reused when replayed, not as unknown', async () => {
      const registry = registryOn(backend.kv);
      const family = registry.newFamily();
      const token = await registry.issue('web', 'u1', family, 'access-1');
      const taken = await registryOn(dyingAfter(backend.kv, 1)).consume('web', token);
      assert.equal(taken.kind, 'ok');
      clock.advance(REUSE_GRACE_MS);
      assert.deepEqual(await registry.consume('web', token), { kind: 'reused', family });
    });

    it('of 10 concurrent presentations of one token, one rotates; the others are refused without revoking (grace)', async () => {
      const registry = registryOn(backend.kv);
      const family = registry.newFamily();
      const token = await registry.issue('web', 'u1', family, 'access-1');
      const results = await Promise.all(Array.from({ length: 10 }, () => registry.consume('web', token)));
      assert.equal(results.filter((r) => r.kind === 'ok').length, 1);
      assert.deepEqual(
        results.filter((r) => r.kind !== 'ok'),
        Array.from({ length: 9 }, () => ({ kind: 'concurrent', family })),
      );
    });
  });
}
