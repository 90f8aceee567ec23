/**
 * Redis store specifics the shared contracts cannot see: the key layout, TTLs as Redis holds
 * them, corrupt data, captcha answers in the form the key-value store holds them, index pruning,
 * and health when the server is unreachable.
 */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { createRedisStores, type RedisStores } from '../../src/adapters/redis/redis-stores';
import { PENDING_GRACE_MS } from '../../src/adapters/redis/session-indexes';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { sleep } from './fixture';
import { makeRecord, newHash } from './session-store.contract';
import { listAll } from '../support/online-page';

const HOUR = 3_600_000;

describe('Redis store specifics', function () {
  let client: Redis | undefined;
  let prefix = '';
  let stores: RedisStores;

  before(async function () {
    await requireRedis(this);
    client = createRedisClient(REDIS_URL);
  });
  after(async () => {
    await client?.quit();
  });
  beforeEach(() => {
    if (client === undefined) throw new Error('redis client not ready');
    prefix = testKeyPrefix('redis-store');
    stores = createRedisStores(client, prefix);
  });
  afterEach(async () => {
    if (client !== undefined) await deleteByPrefix(client, prefix);
  });

  const redis = (): Redis => {
    if (client === undefined) throw new Error('redis client not ready');
    return client;
  };
  /** The online bucket of a session, and the entries of every bucket (and of the legacy index). */
  const bucketOf = (hash: string): string => new RedisKeys(prefix).all('admin', hash);
  const onlineEntries = async (): Promise<number> => {
    const counts = await Promise.all(new RedisKeys(prefix).allKeys('admin').map((k) => redis().zcard(k)));
    return counts.reduce((a, b) => a + b, 0);
  };

  async function login(userId = 'u1', retentionMs: number | null = HOUR): Promise<{ hash: string; tokenId: string }> {
    const now = Date.now();
    const hash = newHash();
    // The token id a login gives: the session's key id (no token-id key is written for it).
    const record = makeRecord({ userId, createdAt: now, tokenId: hash.slice(0, 32) });
    await stores.sessions.create({ loginType: 'admin', tokenHash: hash, record, retentionMs, admission: { kind: 'add' }, now });
    return { hash, tokenId: record.tokenId };
  }

  /** The session's one key: named by the first 32 hex digits of its token hash. */
  const sk = (hash: string): string => `${prefix}s:admin:${hash.slice(0, 32)}`;

  it('uses the documented key layout with PX TTLs: one key per session, the record packed after last-active time and hash', async () => {
    const before = Date.now();
    const { hash, tokenId } = await login();
    const c = redis();
    assert.equal(await c.type(sk(hash)), 'string');
    const value = (await c.get(sk(hash))) ?? '';
    assert.match(value, new RegExp(`^\\d{13}\\|${hash}\\|\\[1,"admin",null,`), value);
    assert.ok(Number(value.slice(0, 13)) >= before);
    assert.equal(await c.exists(`${prefix}s:admin:${hash}`, `${prefix}a:admin:${hash}`, `${prefix}t:admin:${tokenId}`), 0);
    assert.equal(await stores.sessions.findByTokenId('admin', tokenId), hash);
    assert.ok((await c.zscore(`${prefix}u:admin:u1`, hash)) !== null);
    assert.ok((await c.zscore(bucketOf(hash), hash)) !== null);
    assert.match(bucketOf(hash), new RegExp(`^${prefix}all:admin:\\d+$`));
    for (const key of [`s:admin:${hash.slice(0, 32)}`, 'u:admin:u1']) {
      const ttl = await c.pttl(prefix + key);
      assert.ok(ttl > HOUR - 5_000 && ttl <= HOUR, `${key} ttl ${ttl}`);
    }
    await stores.kv.set('k', 'v', null);
    assert.equal(await c.get(`${prefix}kv:k`), 'v');
    await stores.rateLimits.hit('ip', 5, 60_000, Date.now());
    assert.equal(await c.zcard(`${prefix}rl:ip`), 1);
    assert.ok((await c.pttl(`${prefix}rl:ip`)) > 59_000);
  });

  it('a tombstone is one letter, keeps the remaining TTL cut to the tombstone retention, and drops the index entries', async () => {
    const { hash } = await login('u1', 10_000);
    await sleep(20);
    assert.equal(await stores.sessions.mark('admin', [hash], 'kicked-out'), 1);
    const c = redis();
    assert.equal(await c.get(sk(hash)), 'k');
    const ttl = await c.pttl(sk(hash));
    assert.ok(ttl > 0 && ttl <= 10_000 - 20, `ttl ${ttl}`);
    const short = createRedisStores(c, prefix, {}, undefined, { tombstoneRetentionMs: 2_000 }).sessions;
    const long = await login('u1', HOUR);
    assert.equal(await short.mark('admin', [long.hash], 'replaced'), 1);
    assert.equal(await c.get(sk(long.hash)), 'r');
    const cut = await c.pttl(sk(long.hash));
    assert.ok(cut > 0 && cut <= 2_000, `ttl ${cut}`);
    assert.equal(await c.zscore(`${prefix}u:admin:u1`, hash), null);
    assert.equal(await c.zscore(bucketOf(hash), hash), null);
  });

  it('a session without retention and its user index have no TTL', async () => {
    const { hash } = await login('u1', null);
    assert.equal(await redis().pttl(sk(hash)), -1);
    assert.equal(await redis().pttl(`${prefix}u:admin:u1`), -1);
  });

  it('reads corrupt session data as absent and never throws on it', async () => {
    const { hash } = await login();
    await redis().set(sk(hash), '{not json', 'KEEPTTL');
    assert.equal(await stores.sessions.getSession('admin', hash, Date.now(), null), null);
    assert.equal(await stores.sessions.getSession('admin', hash, Date.now(), 60_000), null);
    assert.equal(await stores.sessions.update('admin', hash, makeRecord({ createdAt: Date.now() }), HOUR), false);
    assert.equal(await stores.sessions.mark('admin', [hash], 'kicked-out'), 0);
    assert.deepEqual(await stores.sessions.listByUser('admin', 'u1', Date.now()), []);
    assert.deepEqual(await listAll(stores.sessions, 'admin', Date.now(), 10), []);
    for (const corrupt of ['[1,2]', `0000000000001|${hash}|[2,"admin"]`, `0000000000001|${hash}|{}`, `0000000000001|${hash}`]) {
      await redis().set(sk(hash), corrupt);
      assert.equal(await stores.sessions.getSession('admin', hash, Date.now(), null), null, corrupt);
      assert.equal(await stores.sessions.getSession('admin', hash, Date.now(), 60_000), null, corrupt);
    }
    // Another token hash with the same first 32 digits is not this session.
    await redis().set(sk(hash), `0000000000001|${hash.slice(0, 32)}${'0'.repeat(32)}|[1,"admin",null,1,null,"u1","alice"]`);
    assert.equal(await stores.sessions.getSession('admin', hash, Date.now(), null), null);
  });

  it('a session key of the wrong type fails its own read only, also among reads of one tick (one batched command)', async () => {
    const a = await login();
    const b = await login();
    const c = await login();
    await redis().del(sk(b.hash));
    await redis().hset(sk(b.hash), 'f', 'v'); // WRONGTYPE for GET
    for (const idle of [null, 60_000]) {
      const results = await Promise.allSettled([a, b, c].map((s) => stores.sessions.getSession('admin', s.hash, Date.now(), idle)));
      assert.deepEqual(
        results.map((r) => r.status),
        idle === null ? ['fulfilled', 'fulfilled', 'fulfilled'] : ['fulfilled', 'rejected', 'fulfilled'],
        `idle limit ${idle}`,
      );
      assert.equal((results[0] as PromiseFulfilledResult<{ state: string } | null>).value?.state, 'active');
      assert.equal((results[2] as PromiseFulfilledResult<{ state: string } | null>).value?.state, 'active');
      // MGET reads a key of another type as nil: the session reads as absent.
      if (idle === null) assert.equal((results[1] as PromiseFulfilledResult<unknown>).value, null);
    }
  });

  it('a session key of the wrong type fails its own removal only, also among removals of one tick (one batched script)', async () => {
    const [a, b, c] = [await login(), await login(), await login()];
    await redis().del(sk(b.hash));
    await redis().hset(sk(b.hash), 'f', 'v'); // WRONGTYPE for GET
    const results = await Promise.allSettled([a, b, c].map((s) => stores.sessions.deleteSession('admin', s.hash)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(await redis().exists(sk(a.hash), sk(c.hash)), 0);
  });

  it('listByUser and listAll prune entries whose session expired by TTL', async () => {
    const a = await login('u1', 30);
    const b = await login('u1', HOUR);
    await sleep(60);
    const now = Date.now();
    assert.deepEqual(
      (await stores.sessions.listByUser('admin', 'u1', now)).map((s) => s.tokenHash),
      [b.hash],
    );
    assert.equal(await redis().zscore(`${prefix}u:admin:u1`, a.hash), null);
    assert.deepEqual(
      (await listAll(stores.sessions, 'admin', now, 10)).map((s) => s.tokenHash),
      [b.hash],
    );
    // The online index only knows createdAt: a missing record younger than PENDING_GRACE_MS may be
    // a login still being written, so it is skipped but kept; later it is pruned.
    assert.equal(await onlineEntries(), 2);
    const later = now + PENDING_GRACE_MS + 1;
    assert.deepEqual(
      (await listAll(stores.sessions, 'admin', later, 10)).map((s) => s.tokenHash),
      [b.hash],
    );
    assert.equal(await onlineEntries(), 1);
  });

  it('create garbage-collects user-index entries whose retention deadline passed', async () => {
    const a = await login('u1', 30);
    await sleep(60);
    await login('u1', HOUR);
    assert.equal(await redis().zscore(`${prefix}u:admin:u1`, a.hash), null);
    assert.equal(await redis().zcard(`${prefix}u:admin:u1`), 1);
  });

  it('keeps a captcha answer at kv:captcha:<scope>:<uuid> as {answer, expiresAt} with a PX TTL', async () => {
    const expiresAt = Date.now() + 60_000;
    await stores.captchas.save('admin', 'u1', { answer: 'x7Kq', expiresAt }, HOUR);
    const key = `${prefix}kv:captcha:admin:u1`;
    assert.deepEqual(JSON.parse((await redis().get(key)) ?? 'null'), { answer: 'x7Kq', expiresAt });
    const ttl = await redis().pttl(key);
    assert.ok(ttl > HOUR - 5_000 && ttl <= HOUR, `ttl ${ttl}`);
  });

  it('reads a captcha answer written through the key-value store as {a, exp}', async () => {
    const exp = Date.now() + 60_000;
    await stores.kv.set('captcha:web:u1', JSON.stringify({ a: 'legacy', exp }), HOUR);
    assert.deepEqual(await stores.captchas.take('web', 'u1'), { answer: 'legacy', expiresAt: exp });
    assert.equal(await stores.kv.get('captcha:web:u1'), null, 'take removes it');
  });

  it('reads corrupt captcha data or data of the wrong shape as absent, and removes it', async () => {
    const corrupt = ['{not json', 'null', '[1,2]', '"x"', '{"answer":1,"expiresAt":2}', '{"answer":"x"}', '{"a":"x","exp":"soon"}'];
    for (const [i, value] of corrupt.entries()) {
      await redis().set(`${prefix}kv:captcha:admin:c${i}`, value);
      assert.equal(await stores.captchas.take('admin', `c${i}`), null, value);
      assert.equal(await redis().exists(`${prefix}kv:captcha:admin:c${i}`), 0, value);
    }
  });

  it('ping reports down (never throws) when the server is unreachable, and close() still resolves', async () => {
    let errors = 0;
    const dead = createRedisClient('redis://127.0.0.1:1', { connectTimeoutMs: 200, commandTimeoutMs: 300, onError: () => errors++ });
    const deadStores = createRedisStores(dead, 'x:');
    const started = Date.now();
    const health = await deadStores.health.ping();
    assert.equal(health.up, false);
    assert.ok(health.detail !== undefined && health.detail.length > 0);
    assert.ok(Date.now() - started < 2_000, 'ping must not hang');
    await assert.rejects(deadStores.kv.get('k'), 'commands fail (fail closed) rather than hang');
    assert.ok(errors > 0, 'connection errors reach onError instead of crashing the process');
    await deadStores.health.close();
    // ioredis leaves the status at 'reconnecting' when closed mid-backoff, but stops trying.
    const errorsAtClose = errors;
    await sleep(1_200);
    assert.equal(errors, errorsAtClose, 'no reconnect attempts after close()');
  });
});
