/**
 * A refresh-token family lives svc.refresh-token.absolute-ttl-seconds (90 days by default) from its
 * login, however often it rotates; a FakeClock passes the days, on both stores.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type Koa from 'koa';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken } from '../../src/application/session/session-token';
import type { ConfigKey } from '../../src/main/config';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { REDIS_URL, requireRedis } from '../support/services';

const DAY = 86_400_000;
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
type Pair = { accessToken: string; refreshToken: string; expires: string | null };

for (const kind of STORE_KINDS) {
  describe(`refresh-token family lifetime (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra | undefined;
    let web: Koa;
    let managers: SessionManagers;
    let clock: FakeClock;
    let ip = 0;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
    });
    afterEach(async () => infra?.dispose());

    function setup(overrides: Partial<Record<ConfigKey, unknown>> = {}, store: StoreKind = kind): void {
      clock = new FakeClock(Date.now());
      const config = testConfig({ 'svc.time-zone': 'UTC', 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides }, store);
      infra = testInfra(config, { clock, label: 'rt-lifetime' });
      const built = buildBoth(config, infra).web;
      web = built.app;
      managers = built.container.get(SessionManagers);
    }
    const from = () => `10.8.${Math.floor(++ip / 200)}.${(ip % 200) + 1}`;
    const login = async (): Promise<Pair> =>
      (
        await request(web.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', from())
          .send({ username: 'alice', password: 'alice-pass-123' })
          .expect(200)
      ).body as Pair;
    const refresh = (token: string) =>
      request(web.callback()).post('/auth/refresh-token').set('X-Forwarded-For', from()).send({ refreshToken: token });
    const profile = (access: string) => request(web.callback()).get('/user/profile').set(bearer(access));
    const code = (res: request.Response) => (JSON.parse(res.text) as { code: string }).code;

    it(
      'rotating every 6 days keeps a family only until day 90; then rotation answers 401 ' + 'refresh-token-invalid and the family is gone',
      async () => {
        setup();
        const start = clock.now();
        let pair = await login();
        while (clock.now() + 6 * DAY < start + 90 * DAY) {
          clock.advance(6 * DAY);
          pair = (await refresh(pair.refreshToken).expect(200)).body as Pair;
        }
        // day 84: the access token (7-day timeout) is cut at day 90 with the family, and says so
        assert.equal(pair.expires, new Date(start + 90 * DAY).toISOString().replace(/-/g, '/').replace('T', ' ').slice(0, 19));
        clock.set(start + 90 * DAY - 1000);
        await profile(pair.accessToken).expect(200);
        clock.set(start + 90 * DAY + 1000);
        const late = await refresh(pair.refreshToken);
        assert.equal(late.status, 401);
        assert.equal(code(late), 'refresh-token-invalid');
        assert.equal((await profile(pair.accessToken)).status, 401, 'no access token of the family outlives it');
        assert.equal(code(await refresh(pair.refreshToken)), 'refresh-token-invalid', 'and nothing of it comes back');
        // a new login starts a new family
        const fresh = await login();
        await refresh(fresh.refreshToken).expect(200);
      },
    );

    it('each refresh token is kept no longer than its family has left', async () => {
      setup({ 'svc.refresh-token.absolute-ttl-seconds': 3600 });
      const start = clock.now();
      const first = await login();
      clock.advance(3000_000);
      const next = (await refresh(first.refreshToken).expect(200)).body as Pair;
      const key = `rf:web:${next.refreshToken.split('.').slice(0, 2).join('.')}`;
      if (kind === 'redis') {
        const redis = new Redis(REDIS_URL);
        try {
          const pttl = await redis.pttl(`${infra?.keyPrefix}kv:${key}`);
          assert.ok(pttl > 0 && pttl <= 600_000, `the store keeps it ${pttl} ms, the family has 600,000 left`);
        } finally {
          redis.disconnect();
        }
      } else {
        clock.set(start + 3600_000 - 1);
        assert.notEqual(await infra?.kv.get(key), null);
        clock.set(start + 3600_000);
        assert.equal(await infra?.kv.get(key), null, 'gone from the store when the family ends');
      }
      clock.set(start + 3600_000);
      assert.equal(code(await refresh(next.refreshToken)), 'refresh-token-invalid');
    });

    it('any lifetime of 1 s or more is accepted; with 1 s the pair of a login lasts one second', async () => {
      setup({ 'svc.refresh-token.absolute-ttl-seconds': 1 });
      const pair = await login();
      clock.advance(999);
      await profile(pair.accessToken).expect(200);
      const next = (await refresh(pair.refreshToken).expect(200)).body as Pair;
      clock.advance(1);
      assert.equal((await profile(next.accessToken)).status, 401);
      assert.equal(code(await refresh(next.refreshToken)), 'refresh-token-invalid');
      assert.throws(() => testConfig({ 'svc.refresh-token.absolute-ttl-seconds': 0 }), /svc\.refresh-token\.absolute-ttl-seconds/);
    });

    it(
      'a family written by an earlier release, already past its lifetime, is revoked at its next ' +
        'rotation and its live access token ended',
      async () => {
        setup();
        const session = await managers.get('web').login({ userId: '1', username: 'alice', roles: ['member'], permissions: [] });
        const family = `${clock.now() - 91 * DAY}.${randomUUID()}`;
        const token = randomUUID().replace(/-/g, '');
        const accessHash = hashToken(session.token);
        const kv = infra?.kv;
        assert.ok(kv);
        await kv.set(`rt:web:${sha256(token)}`, JSON.stringify({ userId: '1', family, accessHash }), 30 * DAY);
        await kv.set(`rtfam:web:${family}`, JSON.stringify({ refreshHash: sha256(token), accessHash }), 30 * DAY);
        await kv.set(`rtacc:web:${accessHash}`, family, 30 * DAY);
        await profile(session.token).expect(200);
        assert.equal(code(await refresh(token)), 'refresh-token-invalid');
        assert.equal((await profile(session.token)).status, 401, 'the live access token was ended');
        assert.equal(await kv.get(`rtfam:web:${family}`), null, 'the family is revoked');
        assert.equal(await kv.get(`rt:web:${sha256(token)}`), null);
        assert.equal(await kv.get(`rf:web:${family}`), null);
      },
    );
  });
}
