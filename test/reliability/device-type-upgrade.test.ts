/**
 * Sessions written by the release before device types (issue 29) keep answering as docs/sessions.md
 * says they do after an upgrade: of device type `DEF`. That release stored the User-Agent's
 * platform (bowser's `desktop`, `mobile`, `tablet`, `tv`, `bot`, `unknown`) under `client.deviceType`:
 * no device type, and it must not be taken for one (listings, `?deviceType=` filters, ends by device
 * type, the replaced range, is-share).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { hashToken } from '../../src/application/session/session-token';
import { policyApp, reasonOf, type PolicyApp } from '../support/policy-apps';
import { REDIS_URL, requireRedis } from '../support/services';

const TTL = 3_600_000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** A session as the release before device types wrote it (record, last-active key, user index without metadata). */
async function legacySession(a: PolicyApp, userId: string, username: string): Promise<string> {
  const token = randomUUID();
  const hash = hashToken(token);
  const now = a.clock.now();
  const record = {
    v: 1,
    loginType: a.type,
    tokenId: hash.slice(0, 16),
    createdAt: now,
    expiresAt: now + TTL,
    principal: { userId, username, roles: ['admin'], permissions: ['*:*:*'] },
    client: { ip: '203.0.113.9', userAgent: CHROME, os: 'Windows 10', browser: 'Chrome 126', deviceType: 'desktop' },
    attrs: {},
  };
  const redis = new Redis(REDIS_URL);
  const p = a.infra.keyPrefix;
  try {
    await redis.set(`${p}s:${a.type}:${hash}`, JSON.stringify(record), 'PX', TTL);
    await redis.set(`${p}a:${a.type}:${hash}`, String(now), 'PX', TTL);
    await redis.set(`${p}t:${a.type}:${record.tokenId}`, hash, 'PX', TTL);
    await redis.zadd(`${p}u:${a.type}:${userId}`, now + TTL, hash);
  } finally {
    redis.disconnect();
  }
  return token;
}

describe('sessions of the release before device types read as DEF after the upgrade (redis store)', function () {
  this.timeout(30_000);
  let app: PolicyApp | undefined;
  before(async function () {
    await requireRedis(this);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('admin: listed as DEF, found by ?deviceType=DEF, not by ?deviceType=desktop', async () => {
    const a = (app = await policyApp('admin', 'redis', {}, 'upgrade-device'));
    const legacy = await legacySession(a, '1', 'admin');
    a.clock.advance(1);
    const own = await a.tokens({ deviceType: 'PC' });
    assert.equal(reasonOf('admin', await a.use(legacy)), 'ok');
    const listed = await a.ownSessions(own.accessToken);
    assert.deepEqual(
      listed.map((s) => s.deviceType),
      ['DEF', 'PC'],
    );
    const online = async (deviceType: string) =>
      (
        await a
          .http()
          .get('/monitor/online')
          .query({ username: 'admin', deviceType })
          .set('Authorization', `Bearer ${own.accessToken}`)
          .expect(200)
      ).body.data;
    assert.equal((await online('DEF')).total, 1);
    assert.equal((await online('desktop')).total, 0);
  });

  it('web: POST /user/logout-all {deviceType: DEF} ends the session of the earlier release', async () => {
    const a = (app = await policyApp('web', 'redis', {}, 'upgrade-device'));
    const own = await a.tokens({ deviceType: 'PC' });
    const me = await a.use(own.accessToken);
    const legacy = await legacySession(a, me.body.userId as string, 'alice');
    const r = await a.http().post('/user/logout-all').set('Authorization', `Bearer ${own.accessToken}`).send({ deviceType: 'DEF' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { endedSessions: 1 });
    assert.equal(reasonOf('web', await a.use(legacy)), 'token-invalid');
    assert.equal(reasonOf('web', await a.use(own.accessToken)), 'ok');
  });
});
