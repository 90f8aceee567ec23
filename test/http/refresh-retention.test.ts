/**
 * Refresh state follows use (issue 30): after each way a session ends, the keys of the refresh
 * side (the family record `rf`, the cut-offs `rtcut`, and none of the keys of earlier releases)
 * that are left, and how long they stay. Every end that revokes leaves no family record; a cut-off
 * (logout-all, kick-all, replacement) stays at most min(refresh TTL, family lifetime); a family
 * nobody ends stays at most the refresh TTL from its last rotation, never past its lifetime. Once
 * that retention passes: zero keys. The memory store runs on the test clock (the keys are read
 * after the clock moved); Redis expires by its own clock, so there every key left is checked by
 * its PTTL.
 */
import assert from 'node:assert/strict';
import type Koa from 'koa';
import Redis from 'ioredis';
import request from 'supertest';
import { EndSession } from '../../src/application/auth/end-session';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken, tokenIdOf } from '../../src/application/session/session-token';
import { EndUserSessions } from '../../src/application/users/end-user-sessions';
import type { ConfigKey } from '../../src/main/config';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { REDIS_URL, requireRedis } from '../support/services';

const DAY = 86_400_000;
const TTL = 30 * DAY; // svc.refresh-token.ttl-seconds (default)
const LIFETIME = 90 * DAY; // svc.refresh-token.absolute-ttl-seconds (default)
const CUT_RETENTION = Math.min(TTL, LIFETIME);
const REFRESH_SPACE = /^(rf|rt|rtused|rtfam|rtacc|rtrev|rtcut):/;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

/** The store, noting every refresh-side key written through it. */
function recording(kv: KeyValueStore, written: Set<string>): KeyValueStore {
  const note = (key: unknown) => {
    if (typeof key === 'string' && REFRESH_SPACE.test(key)) written.add(key);
  };
  return new Proxy(kv, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'setMany') for (const e of args[0] as { key: string }[]) note(e.key);
        else if (prop === 'deleteIfEqualsAndSet') note((args[2] as { key: string }).key);
        else note(args[0]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

interface Ctx {
  kind: StoreKind;
  infra: TestInfra;
  web: Koa;
  clock: FakeClock;
  written: Set<string>;
  managers: SessionManagers;
  container: ReturnType<typeof buildBoth>['web']['container'];
}

let ip = 0;
async function login(c: Ctx, ua = 'agent'): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await request(c.web.callback())
    .post('/auth/login')
    .set('X-Forwarded-For', `10.30.${Math.floor(++ip / 200)}.${(ip % 200) + 1}`)
    .set('User-Agent', ua)
    .send({ username: 'alice', password: 'alice-pass-123' });
  assert.equal(res.status, 200, res.text);
  return res.body as { accessToken: string; refreshToken: string };
}

const refresh = (c: Ctx, refreshToken: string) => request(c.web.callback()).post('/auth/refresh-token').send({ refreshToken });

/** The refresh-side keys still there, with the ms each has left (Redis: PTTL; memory: null). */
async function left(c: Ctx): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  const redis = c.kind === 'redis' ? new Redis(REDIS_URL) : null;
  try {
    for (const key of c.written) {
      if ((await c.infra.kv.get(key)) === null) continue;
      out.set(key, redis === null ? null : await redis.pttl(`${c.infra.keyPrefix}kv:${key}`));
    }
  } finally {
    redis?.disconnect();
  }
  return out;
}

const spaces = (keys: Map<string, number | null>): string[] => [...keys.keys()].map((k) => k.split(':')[0] ?? '').sort();

/**
 * The keys left right after the end are exactly `expected` (by space); then none once `retention`
 * passes (memory: the clock moved; Redis: every PTTL within it).
 */
async function assertRetention(c: Ctx, expected: string[], retention: number): Promise<void> {
  const now = await left(c);
  assert.deepEqual(spaces(now), expected.sort(), `left right after the end: ${[...now.keys()].join(', ')}`);
  if (c.kind === 'redis') {
    for (const [key, pttl] of now) assert.ok(pttl !== null && pttl > 0 && pttl <= retention, `${key}: PTTL ${pttl} > ${retention}`);
  } else {
    c.clock.advance(retention);
    assert.deepEqual([...(await left(c)).keys()], [], 'nothing once the retention passed');
  }
}

for (const kind of STORE_KINDS) {
  describe(`refresh-side keys left after each end of a session (${kind} store)`, function () {
    this.timeout(20000);
    let c: Ctx;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
    });

    function setup(overrides: Partial<Record<ConfigKey, unknown>> = {}): void {
      const clock = new FakeClock(Date.now());
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides }, kind);
      const infra = testInfra(config, { clock, label: 'rt-retention' });
      const written = new Set<string>();
      const built = buildBoth(config, { ...infra, kv: recording(infra.kv, written) });
      const container = built.web.container;
      c = { kind, infra, web: built.web.app, clock, written, managers: container.get(SessionManagers), container };
    }
    afterEach(async () => c?.infra.dispose());

    it('a login writes one key of refresh state; a rotation writes no other', async () => {
      setup();
      const pair = await login(c);
      assert.deepEqual(spaces(await left(c)), ['rf']);
      c.clock.advance(1000);
      await refresh(c, pair.refreshToken).expect(200);
      assert.deepEqual(spaces(await left(c)), ['rf'], 'the same family record');
    });

    it('logout: nothing left', async () => {
      setup();
      const pair = await login(c);
      await request(c.web.callback()).post('/auth/logout').set(bearer(pair.accessToken)).expect(200);
      await assertRetention(c, [], 0);
    });

    it('kickout of the session: nothing left', async () => {
      setup();
      const pair = await login(c);
      await c.container.get(EndSession).execute({ loginType: 'web', tokenId: tokenIdOf(hashToken(pair.accessToken)), kick: true });
      await assertRetention(c, [], 0);
    });

    it('family revoked (a rotated token presented again): nothing left', async () => {
      setup();
      const pair = await login(c);
      c.clock.advance(1000);
      await refresh(c, pair.refreshToken).expect(200);
      c.clock.advance(5000);
      assert.equal((await refresh(c, pair.refreshToken).expect(401)).body.code, 'refresh-token-reused');
      await assertRetention(c, [], 0);
    });

    it('logout-all: no family left, the cut-off for min(refresh TTL, family lifetime)', async () => {
      setup();
      await login(c, 'one');
      const two = await login(c, 'two');
      await request(c.web.callback()).post('/user/logout-all').set(bearer(two.accessToken)).expect(200);
      await assertRetention(c, ['rtcut'], CUT_RETENTION);
    });

    it('kick-all (disable, password reset): no family left, the cut-off for min(refresh TTL, family lifetime)', async () => {
      setup();
      await login(c, 'one');
      await login(c, 'two');
      await c.container.get(EndUserSessions).execute({ loginType: 'web', userId: '1', username: 'alice' });
      await assertRetention(c, ['rtcut'], CUT_RETENTION);
    });

    it('replacement (is-concurrent=false): the replaced family is gone, the cut-off bounded', async () => {
      setup({ 'session.is-concurrent': false, 'svc.refresh-token.absolute-ttl-seconds': 7 * 86400 });
      await login(c, 'device-a');
      const before = [...(await left(c)).keys()].filter((k) => k.startsWith('rf:'));
      c.clock.advance(1);
      const b = await login(c, 'device-b');
      const now = await left(c);
      assert.equal(before.length, 1);
      assert.deepEqual(
        before.filter((k) => now.has(k)),
        [],
        "device A's family record is gone",
      );
      assert.equal(spaces(now).filter((k) => k === 'rf').length, 1, "device B's family record is there");
      await request(c.web.callback()).get('/user/profile').set(bearer(b.accessToken)).expect(200);
      await request(c.web.callback()).post('/auth/logout').set(bearer(b.accessToken)).expect(200);
      await assertRetention(c, ['rtcut'], 7 * DAY);
    });

    it('nobody ends it: the family stays the refresh TTL from its last rotation, then nothing', async () => {
      setup();
      const pair = await login(c);
      c.clock.advance(10 * DAY);
      await refresh(c, pair.refreshToken).expect(200);
      await assertRetention(c, ['rf'], TTL);
    });

    it('never past the family lifetime, however recently it rotated', async () => {
      setup({ 'svc.refresh-token.absolute-ttl-seconds': 86400 });
      let pair = await login(c);
      c.clock.advance(DAY - 3_600_000);
      pair = (await refresh(c, pair.refreshToken).expect(200)).body as typeof pair;
      await assertRetention(c, ['rf'], 3_600_000);
      if (kind === 'memory') assert.equal((await refresh(c, pair.refreshToken)).body.code, 'refresh-token-invalid');
    });
  });
}
