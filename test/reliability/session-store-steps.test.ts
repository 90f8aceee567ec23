/**
 * The Redis session store's ordered steps (key-layout.ts) under interleaving, in both layouts: a
 * login whose record is not written yet (indexed, record pending) is never pruned by listings or
 * by another login's sampling; a newer is-concurrent=false login tombstones it for the full
 * retention; listAll pages by (score, member) so logouts between pages skip no live session; and
 * setMany never reorders a batch across slots. Found by an independent review; each case failed
 * on the first version of the layout.
 */
import assert from 'node:assert/strict';
import calculateSlot from 'cluster-key-slot';
import Redis from 'ioredis';
import { type KeyLayoutKind, RedisKeys } from '../../src/adapters/redis/key-layout';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { RedisSessionStore } from '../../src/adapters/redis/session-store';
import { makeRecord, newHash } from '../contract/session-store.contract';
import { deleteByPrefix, REDIS_URL, requireRedis, testKeyPrefix } from '../support/services';
import { listAll } from '../support/online-page';

const HOUR = 3_600_000;

/** A view of `real` whose calls named in `names` wait until open() (reached: the first such call began). */
function gatedClient(real: Redis, names: readonly string[]): { client: Redis; open: () => void; reached: Promise<void> } {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const hit = new Promise<void>((r) => (reached = r));
  const client = new Proxy(real, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      if (typeof prop === 'string' && names.includes(prop)) {
        return async (...args: unknown[]) => {
          reached();
          await gate;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { client, open: () => open(), reached: hit };
}

/** `real` with `hook` run after each call of `name` (the hook may act on the store meanwhile). */
function spied(real: Redis, name: string, hook: (args: unknown[], n: number) => Promise<void>): Redis {
  let n = 0;
  return new Proxy(real, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      if (prop !== name) return (v as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        n += 1;
        await hook(args, n);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('Redis session store: ordered steps under interleaving', function () {
  let real: Redis;
  let prefix: string;
  before(async function () {
    await requireRedis(this);
  });
  beforeEach(() => {
    real = new Redis(REDIS_URL);
    prefix = testKeyPrefix('steps');
  });
  afterEach(async () => {
    await deleteByPrefix(real, prefix);
    await real.quit();
  });

  for (const layout of ['plain', 'tagged'] as KeyLayoutKind[]) {
    describe(`${layout} layout`, () => {
      /** A login of `userId` stopped after its index step, before its record is written. */
      async function loginInFlight(userId: string, replaceOthers = false) {
        const other = new RedisSessionStore(real, prefix, layout); // also defines the scripts on the client
        const g = gatedClient(real, ['agSessionWrite']);
        const store = new RedisSessionStore(g.client, prefix, layout);
        const now = Date.now();
        const hash = newHash();
        const done = store.create({
          loginType: 'admin',
          tokenHash: hash,
          record: makeRecord({ userId, createdAt: now }),
          retentionMs: HOUR,
          admission: replaceOthers ? { kind: 'replace', deviceType: null } : { kind: 'add' },
          now,
        });
        await g.reached;
        return { other, hash, now, finish: () => (g.open(), done) };
      }
      const state = async (s: RedisSessionStore, hash: string) => (await s.getSession('admin', hash, Date.now(), null))?.state;

      it('listByUser during a login keeps its entry: logout-all / kickout and a later replacement reach it', async () => {
        const a = await loginInFlight('victim');
        assert.equal((await a.other.listByUser('admin', 'victim', a.now)).length, 0, 'not listed while pending');
        await a.finish();
        const listed = await a.other.listByUser('admin', 'victim', Date.now());
        assert.deepEqual(
          listed.map((x) => x.tokenHash),
          [a.hash],
        );
        const next = newHash();
        const r = await a.other.create({
          loginType: 'admin',
          tokenHash: next,
          record: makeRecord({ userId: 'victim', createdAt: Date.now() }),
          retentionMs: HOUR,
          admission: { kind: 'replace', deviceType: null },
          now: Date.now(),
        });
        assert.equal(r.ended.length, 1);
        assert.equal(await state(a.other, a.hash), 'replaced');
      });

      it('listAll and other logins sampling the bucket during a login keep its online entry', async () => {
        const a = await loginInFlight('online');
        await listAll(a.other, 'admin', a.now, 1000);
        for (let i = 0; i < 48; i++) {
          const h = newHash();
          await a.other.create({
            loginType: 'admin',
            tokenHash: h,
            record: makeRecord({ userId: `b${i}`, createdAt: Date.now() }),
            retentionMs: HOUR,
            admission: { kind: 'add' },
            now: Date.now(),
          });
          await a.other.deleteSession('admin', h);
        }
        await a.finish();
        assert.equal(await state(a.other, a.hash), 'active');
        assert.ok(
          (await listAll(a.other, 'admin', Date.now(), 1000)).some((x) => x.tokenHash === a.hash),
          'the live session is listed',
        );
      });

      it('a newer is-concurrent=false login tombstones a pending one for the whole retention: it never becomes live', async () => {
        const a = await loginInFlight('solo', true);
        const b = newHash();
        const r = await a.other.create({
          loginType: 'admin',
          tokenHash: b,
          record: makeRecord({ userId: 'solo', createdAt: Date.now() }),
          retentionMs: HOUR,
          admission: { kind: 'replace', deviceType: null },
          now: Date.now(),
        });
        assert.deepEqual(r.ended, [{ tokenHash: a.hash, record: null }], 'a pending login is ended before its record exists');
        const pttl = await real.pttl(new RedisKeys(prefix, layout).session('admin', a.hash));
        assert.ok(pttl > HOUR - 60_000, `pending tombstone PTTL ${pttl}`);
        await a.finish();
        assert.equal(await state(a.other, a.hash), 'replaced');
        assert.deepEqual(
          (await a.other.listByUser('admin', 'solo', Date.now())).map((x) => x.tokenHash),
          [b],
        );
      });

      it('listAll pages by (createdAt, hash): logouts between two pages skip no live session', async () => {
        const s = new RedisSessionStore(real, prefix, layout);
        const t0 = Date.now();
        const hashes: string[] = [];
        for (let i = 0; i < 160; i++) {
          const h = newHash();
          hashes.push(h);
          await s.create({
            loginType: 'admin',
            tokenHash: h,
            record: makeRecord({ userId: `u${i}`, createdAt: t0 + (i % 5) }),
            retentionMs: HOUR,
            admission: { kind: 'add' },
            now: t0,
          });
        }
        const loggedOut = hashes.slice(0, 40);
        const viewer = new RedisSessionStore(
          spied(real, 'zrange', async (_args, n) => {
            if (n === 2) for (const h of loggedOut) await s.deleteSession('admin', h);
          }),
          prefix,
          layout,
        );
        const listed = new Set((await listAll(viewer, 'admin', Date.now(), 1000)).map((x) => x.tokenHash));
        assert.deepEqual(
          hashes.slice(40).filter((h) => !listed.has(h)),
          [],
          'live sessions skipped',
        );
      });
    });
  }

  it("setMany on the tagged layout keeps the given order when a later key shares an earlier key's slot", async () => {
    const keys = new RedisKeys(prefix, 'tagged');
    const h = 'a'.repeat(64);
    const target = calculateSlot(keys.keyValue(`rt:admin:${h}`));
    let fam = '';
    for (let i = 0; ; i++) {
      fam = `${Date.now()}.${i}`;
      if (calculateSlot(keys.keyValue(`rtfam:admin:${fam}`)) === target) break;
    }
    new RedisKeyValueStore(real, prefix, 'tagged'); // defines the scripts
    const steps: string[][] = [];
    const kv = new RedisKeyValueStore(
      spied(real, 'agKvSetMany', async (args, n) => {
        steps.push((args.slice(1, 1 + Number(args[0])) as string[]).map((k) => k.slice(prefix.length)));
        if (n === 2) throw new Error('store error on the second step');
      }),
      prefix,
      'tagged',
    );
    const acc = 'b'.repeat(64);
    await assert.rejects(
      kv.setMany([
        { key: `rtfam:admin:${fam}`, value: 'F', ttlMs: 60_000 },
        { key: `rtacc:admin:${acc}`, value: fam, ttlMs: 60_000 },
        { key: `rt:admin:${h}`, value: 'R', ttlMs: 60_000 },
      ]),
    );
    assert.equal(steps.length, 2);
    assert.equal(await kv.get(`rtfam:admin:${fam}`), 'F');
    assert.equal(await kv.get(`rt:admin:${h}`), null, 'the token is not written before its access index');
  });
});
