/**
 * A session the previous release left in Redis (record JSON in `s:<type>:<hash>`, `a`, the 16-hex token id
 * in `t`, its user and online index entries) keeps working over HTTP on the layout of one key per session:
 * `/auth/me` (with an idle limit too), the own-session list (its 16-hex id, `current`), the online list, the
 * kickout by its 16-hex id and ending it from another of the user's sessions; beside a session logged in now
 * (32-hex id, one key). The store-level cases: test/contract/session-layout-upgrade.test.ts.
 */
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import request from 'supertest';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken } from '../../src/application/session/session-token';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { REDIS_URL, requireRedis } from '../support/services';

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const admin = { userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] };
const HOUR = 3_600_000;

for (const idle of [-1, 1800]) {
  describe(`a session of the previous release over HTTP after the upgrade (session.active-timeout ${idle})`, function () {
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let clock: FakeClock;
    let redis: Redis;

    before(async function () {
      await requireRedis(this);
      redis = new Redis(REDIS_URL);
    });
    after(async () => redis?.quit());
    beforeEach(() => {
      clock = new FakeClock(Date.now());
      const config = testConfig({ 'session.active-timeout': idle }, 'redis');
      infra = testInfra(config, { clock, label: 'upgrade-http' });
      apps = buildBoth(config, infra);
    });
    afterEach(async () => infra?.dispose());

    /** What the previous release wrote for an admin login of `token`. */
    async function legacyLogin(token: string): Promise<string> {
      const hash = hashToken(token);
      const now = clock.now();
      const tokenId = hash.slice(0, 16);
      const record = {
        v: 1,
        loginType: 'admin',
        tokenId,
        createdAt: now - 60_000,
        expiresAt: now + HOUR,
        principal: admin,
        client: { ip: '192.0.2.9', userAgent: 'old', os: 'Linux', browser: 'Firefox 128', deviceType: 'PC' },
        attrs: {},
      };
      const k = new RedisKeys(infra.keyPrefix);
      await redis.set(k.legacySession('admin', hash), JSON.stringify(record), 'PX', HOUR);
      await redis.set(k.lastActive('admin', hash), String(now - 30_000), 'PX', HOUR);
      await redis.set(k.tokenId('admin', tokenId), hash, 'PX', HOUR);
      await redis.zadd(k.user('admin', '1'), now + HOUR, hash);
      await redis.zadd(k.all('admin', hash), record.createdAt, hash);
      return tokenId;
    }

    const http = () => request(apps.admin.app.callback());

    it('answers /auth/me, is listed with its 16-hex id beside a new session, and is kicked out by that id', async () => {
      const token = crypto.randomUUID();
      const tokenId = await legacyLogin(token);
      const me = await http().get('/auth/me').set(bearer(token)).expect(200);
      assert.equal(me.body.data.username, 'admin');
      const fresh = await apps.admin.container.get(SessionManagers).get('admin').login(admin);
      assert.match(fresh.tokenId, /^[0-9a-f]{32}$/);
      const own = (await http().get('/auth/sessions').set(bearer(token)).expect(200)).body.data as Array<{
        tokenId: string;
        current: boolean;
      }>;
      assert.deepEqual(
        own.map((r) => [r.tokenId, r.current]).sort(),
        [
          [tokenId, true],
          [fresh.tokenId, false],
        ].sort(),
      );
      const online = (await http().get('/monitor/online').set(bearer(fresh.token)).expect(200)).body.data.list as Array<{
        tokenId: string;
      }>;
      assert.deepEqual(online.map((r) => r.tokenId).sort(), [tokenId, fresh.tokenId].sort());
      await http().delete(`/monitor/online/${tokenId}`).set(bearer(fresh.token)).expect(200);
      assert.equal((await http().get('/auth/me').set(bearer(token)).expect(401)).body.code, 40105);
      await http().get('/auth/me').set(bearer(fresh.token)).expect(200);
    });

    it('is ended by the user from a new session (DELETE /auth/sessions/{its 16-hex id})', async () => {
      const token = crypto.randomUUID();
      const tokenId = await legacyLogin(token);
      const fresh = await apps.admin.container.get(SessionManagers).get('admin').login(admin);
      await http().delete(`/auth/sessions/${tokenId}`).set(bearer(fresh.token)).expect(204);
      await http().get('/auth/me').set(bearer(token)).expect(401);
      await http().delete(`/auth/sessions/${fresh.tokenId}`).set(bearer(token)).expect(401);
    });
  });
}

describe('session.tombstone-retention reaches the Redis session store', function () {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  let redis: Redis;
  before(async function () {
    await requireRedis(this);
    redis = new Redis(REDIS_URL);
  });
  after(async () => redis?.quit());
  beforeEach(() => {
    const config = testConfig({ 'session.tombstone-retention': 60 }, 'redis');
    infra = testInfra(config, { label: 'tombstone-retention' });
    apps = buildBoth(config, infra);
  });
  afterEach(async () => infra?.dispose());

  it('a kickout leaves the one-letter tombstone for 60 s, not the session week', async () => {
    const managers = apps.admin.container.get(SessionManagers).get('admin');
    const [root, victim] = [await managers.login(admin), await managers.login(admin)];
    await request(apps.admin.app.callback()).delete(`/monitor/online/${victim.tokenId}`).set(bearer(root.token)).expect(200);
    const key = new RedisKeys(infra.keyPrefix).session('admin', victim.tokenHash);
    assert.equal(await redis.get(key), 'k');
    const ttl = await redis.pttl(key);
    assert.ok(ttl > 50_000 && ttl <= 60_000, `ttl ${ttl}`);
  });
});
