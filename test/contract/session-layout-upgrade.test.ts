/**
 * The previous release's sessions on the layout of one key per session (session-layout-upgrade.contract.ts)
 * on one server: the plain layout, and the tagged (cluster) one with every command checked to stay in one
 * slot; and such a session behind the local session cache.
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { slotCheckedClient, type SlotCheckedClient } from '../support/slot-check';
import { cachedSessionStore } from '../support/session-cache';
import { FakeClock } from '../support/fake-clock';
import { sleep } from './fixture';
import { makeRecord, newHash } from './session-records';
import { describeSessionLayoutUpgrade } from './session-layout-upgrade.contract';

const HOUR = 3_600_000;

describe('previous-layout sessions on one server', function () {
  let raw: Redis | undefined;
  let checked: SlotCheckedClient | undefined;
  before(async function () {
    await requireRedis(this);
    raw = createRedisClient(REDIS_URL) as Redis;
    checked = slotCheckedClient(REDIS_URL);
  });
  after(async () => {
    if (checked !== undefined) {
      assert.deepEqual(checked.violations, [], 'commands spanning several slots (tagged layout)');
      await checked.client.quit();
    }
    await raw?.quit();
  });

  describeSessionLayoutUpgrade(' (plain)', 'plain', () => raw && { store: raw, raw });
  describeSessionLayoutUpgrade(' (tagged, slot-checked)', 'tagged', () => raw && checked && { store: checked.client, raw });
});

describe('sessions of the previous release behind the local session cache', function () {
  let raw: Redis;
  let prefix: string;
  before(async function () {
    await requireRedis(this);
    raw = createRedisClient(REDIS_URL) as Redis;
  });
  after(async () => raw?.quit());
  beforeEach(() => {
    prefix = testKeyPrefix('upgrade-cache');
  });
  afterEach(async () => deleteByPrefix(raw, prefix));

  it('is cached under its new key name, and a kickout by another instance (its previous-layout key) drops the entry', async () => {
    const keys = new RedisKeys(prefix);
    const hash = newHash();
    const now = Date.now();
    const record = makeRecord({ createdAt: now, tokenId: hash.slice(0, 16) });
    await raw.set(keys.legacySession('admin', hash), JSON.stringify(record), 'PX', HOUR);
    await raw.set(keys.lastActive('admin', hash), String(now), 'PX', HOUR);
    const cache = await cachedSessionStore(raw, REDIS_URL, prefix, new FakeClock(now));
    try {
      assert.deepEqual(await cache.store.getSession('admin', hash, now, null), { state: 'active', record, lastActiveAt: now });
      assert.ok(cache.store.holds('admin', hash), 'cached');
      const other = new RedisSessionStore(raw, prefix);
      assert.equal(await other.mark('admin', [hash], 'kicked-out'), 1);
      const deadline = Date.now() + 2_000;
      while (cache.store.holds('admin', hash) && Date.now() < deadline) await sleep(5);
      assert.deepEqual(await cache.store.getSession('admin', hash, now, null), { state: 'kicked-out' });
    } finally {
      await cache.store.close();
    }
  });
});
