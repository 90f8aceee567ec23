/**
 * Records written by the previous release must keep working after an upgrade: refresh tokens
 * (`{u, f, a}`, `{f, t}`, `{r, a}`; the `rt`/`rtfam`/`rtacc`/`rtused` layout, moved to one `rf`
 * record per family at the token's rotation), the account-lock state (`{n, until}`), captcha answers
 * (`{a, exp}`) and sessions under the same key layout. Each case writes the old form straight
 * into the store, as the previous release left it, and drives the current apps over HTTP.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken } from '../../src/application/session/session-token';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { REDIS_URL, requireRedis } from '../support/services';

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const admin = { userId: '1', username: 'admin', roles: ['admin'], permissions: ['*:*:*'] };
const TTL = 3_600_000;

for (const kind of STORE_KINDS) {
  describe(`records of the previous format survive an upgrade (${kind} store)`, function () {
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let clock: FakeClock;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
    });
    beforeEach(() => {
      clock = new FakeClock(Date.now());
      const config = testConfig({ 'svc.captcha.enabled': true, 'svc.captcha.captcha-type': 'math' }, kind);
      infra = testInfra(config, { clock, label: 'upgrade' });
      apps = buildBoth(config, infra);
    });
    afterEach(async () => infra?.dispose());

    /** A live admin session plus a refresh family in the previous one-letter format; returns the refresh token. */
    async function legacyFamily(): Promise<{ access: string; refresh: string; family: string }> {
      // the session record of that release names its family (attrs.rtFamily), as every one with a refresh token did
      const family = `${clock.now() - 1000}.${randomUUID()}`;
      const session = await apps.admin.container.get(SessionManagers).get('admin').login(admin, {}, { rtFamily: family });
      const refresh = randomUUID().replace(/-/g, '');
      const accessHash = hashToken(session.token);
      await infra.kv.set(`rt:admin:${sha256(refresh)}`, JSON.stringify({ u: '1', f: family, a: accessHash }), TTL);
      await infra.kv.set(`rtfam:admin:${family}`, JSON.stringify({ r: sha256(refresh), a: accessHash }), TTL);
      await infra.kv.set(`rtacc:admin:${accessHash}`, family, TTL);
      return { access: session.token, refresh, family };
    }

    const refresh = (token: string) => request(apps.admin.app.callback()).post('/auth/refresh-token').send({ refreshToken: token });

    it('a refresh token of the previous format rotates, and its old access token is logged out', async () => {
      const old = await legacyFamily();
      const res = await refresh(old.refresh).expect(200);
      await request(apps.admin.app.callback()).get('/auth/me').set(bearer(res.body.data.accessToken)).expect(200);
      await request(apps.admin.app.callback()).get('/auth/me').set(bearer(old.access)).expect(401);
      clock.advance(1);
      await refresh(res.body.data.refreshToken).expect(200);
    });

    it('a used marker of the previous format still counts as reuse and revokes the family', async () => {
      const old = await legacyFamily();
      const used = randomUUID().replace(/-/g, '');
      await infra.kv.set(`rtused:admin:${sha256(used)}`, JSON.stringify({ f: old.family, t: clock.now() - 10_000 }), TTL);
      assert.equal((await refresh(used).expect(401)).body.code, 40112);
      assert.equal((await refresh(old.refresh).expect(401)).body.code, 40111, 'the family was revoked');
      await request(apps.admin.app.callback()).get('/auth/me').set(bearer(old.access)).expect(401);
    });

    it('rotating a refresh token of the previous format moves its family to the new layout (one key)', async () => {
      const old = await legacyFamily();
      const accessHash = hashToken(old.access);
      const res = await refresh(old.refresh).expect(200);
      const next: string = res.body.data.refreshToken;
      assert.ok(next.startsWith(`${old.family}.`), 'the new token names its family');
      for (const key of [`rt:admin:${sha256(old.refresh)}`, `rtfam:admin:${old.family}`, `rtacc:admin:${accessHash}`]) {
        assert.equal(await infra.kv.get(key), null, `${key} removed`);
      }
      assert.notEqual(await infra.kv.get(`rf:admin:${old.family}`), null);
      clock.advance(5000);
      // the old token, presented again, is still reuse (its used marker), and ends the migrated family
      assert.equal((await refresh(old.refresh).expect(401)).body.code, 40112);
      assert.equal(await infra.kv.get(`rf:admin:${old.family}`), null);
      assert.equal((await refresh(next).expect(401)).body.code, 40111);
      await request(apps.admin.app.callback()).get('/auth/me').set(bearer(res.body.data.accessToken)).expect(401);
    });

    it('logging out a session of the previous release revokes its old-layout family', async () => {
      const old = await legacyFamily();
      await request(apps.admin.app.callback()).post('/auth/logout').set(bearer(old.access)).expect(200);
      for (const key of [`rt:admin:${sha256(old.refresh)}`, `rtfam:admin:${old.family}`]) assert.equal(await infra.kv.get(key), null);
      assert.equal((await refresh(old.refresh).expect(401)).body.code, 40111);
    });

    it('a family the previous release marked revoked (rtrev: its session ended over the cap) stays refused', async () => {
      const old = await legacyFamily();
      // That release ended the session over session.max-login-count ('logged-out' tombstone, since expired) and only
      // marked its family revoked: its `rt` stayed, refused by the marker.
      await apps.admin.container.get(SessionManagers).get('admin').logoutByHash(hashToken(old.access));
      await infra.kv.set(`rtrev:admin:${old.family}`, '1', TTL);
      assert.equal((await refresh(old.refresh).expect(401)).body.code, 40111);
      for (const key of [`rt:admin:${sha256(old.refresh)}`, `rtfam:admin:${old.family}`, `rf:admin:${old.family}`]) {
        assert.equal(await infra.kv.get(key), null, `${key} removed`);
      }
    });

    it('an account lock of the previous format still locks', async () => {
      await infra.kv.set('loginfail:web:alice', JSON.stringify({ n: 10, until: clock.now() + 60_000 }), 60_000);
      // a spent shared budget: a client without a device cookie must now solve a captcha (428)
      const locked = await request(apps.web.app.callback())
        .post('/auth/login')
        .send({ username: 'alice', password: 'whatever1' })
        .expect(428);
      assert.equal(locked.body.code, 'captcha-required');
      assert.ok(Number(locked.headers['retry-after']) > 0);
    });

    if (kind === 'redis') {
      it('a captcha answer of the previous format verifies', async () => {
        const uuid = randomUUID();
        await infra.kv.set(`captcha:admin:${uuid}`, JSON.stringify({ a: '12', exp: clock.now() + 60_000 }), 600_000);
        const bad = await request(apps.admin.app.callback())
          .post('/auth/login')
          .send({ username: 'admin', password: 'not-encrypted', code: '12', uuid });
        assert.equal(bad.body.code, 40110, 'the captcha passed: the failure is the password');
      });

      it('a session stored by the previous release resolves (same key layout and record)', async () => {
        const token = randomUUID();
        const hash = hashToken(token);
        const now = clock.now();
        const record = {
          v: 1,
          loginType: 'admin',
          tokenId: hash.slice(0, 16),
          createdAt: now,
          expiresAt: now + TTL,
          principal: admin,
          client: {},
          attrs: {},
        };
        const redis = new Redis(REDIS_URL);
        try {
          await redis.set(`${infra.keyPrefix}s:admin:${hash}`, JSON.stringify(record), 'PX', TTL);
          await redis.set(`${infra.keyPrefix}a:admin:${hash}`, String(now), 'PX', TTL);
          await redis.zadd(`${infra.keyPrefix}u:admin:1`, now + TTL, hash);
        } finally {
          redis.disconnect();
        }
        const me = await request(apps.admin.app.callback()).get('/auth/me').set(bearer(token)).expect(200);
        assert.equal(me.body.data.username, 'admin');
      });
    }
  });
}
