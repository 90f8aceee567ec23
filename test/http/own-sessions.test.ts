/**
 * GET /auth/sessions and DELETE /auth/sessions/:tokenId on the admin app, on both stores: an
 * administrator lists its own sessions (the online list's row, `current` on the caller's; by page
 * with ?page=&size=, the bare array without) and ends
 * one of them (its token answers 401, its refresh token is refused); another user's session and an
 * unknown id are 404; no token is 401; the event is in the login log.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { bearer, encryptPassword } from '../support/flows';
import { requireRedis } from '../support/services';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

for (const kind of STORE_KINDS) {
  describe(`an administrator's own sessions (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra;
    let admin: BuiltApp;
    /** Each login a second after the one before: listings order by login time (ties by token hash). */
    const clock = new FakeClock(Date.now());
    const http = () => request(admin.app.callback());
    const login = async (username: string, password: string, ip: string, userAgent: string) => {
      clock.advance(1000);
      const key = (await http().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      const r = await http()
        .post('/auth/login')
        .set('X-Forwarded-For', ip)
        .set('User-Agent', userAgent)
        .send({ username, password: encryptPassword(key, password) });
      assert.equal(r.status, 200, r.text);
      return r.body.data as { accessToken: string; refreshToken: string };
    };

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1 }, kind);
      infra = testInfra(config, { label: 'ownsessions', clock });
      ({ admin } = buildBoth(config, infra));
    });
    after(async () => infra?.dispose());

    it('lists your sessions (and only yours) with the device columns; `current` marks the one asking', async () => {
      const desk = await login('viewer', 'viewer123', '192.0.2.21', FIREFOX);
      const phone = await login('viewer', 'viewer123', '192.0.2.22', IPHONE);
      await login('admin', 'admin123', '192.0.2.23', FIREFOX);
      const r = await http().get('/auth/sessions').set(bearer(phone.accessToken)).expect(200);
      const rows = r.body.data as Array<Record<string, unknown>>;
      assert.deepEqual(
        rows.map((s) => [s.username, s.ipaddr, s.os, s.browser, s.deviceType, s.current]),
        [
          ['viewer', '192.0.2.21', 'Windows 10', 'Firefox 128', 'PC', false],
          ['viewer', '192.0.2.22', 'iOS 17', 'Safari 17', 'H5', true],
        ],
      );
      for (const row of rows) assert.match(String(row.tokenId), /^[0-9a-f]{32}$/);
      await http().delete(`/auth/sessions/${rows[0]?.tokenId}`).set(bearer(phone.accessToken)).expect(204);
      await http().get('/auth/me').set(bearer(phone.accessToken)).expect(200);
      await http().get('/auth/me').set(bearer(desk.accessToken)).expect(401);
      await http().post('/auth/refresh-token').send({ refreshToken: desk.refreshToken }).expect(401);
      assert.equal((await http().get('/auth/sessions').set(bearer(phone.accessToken)).expect(200)).body.data.length, 1);
    });

    it('pages with ?page=&size= (oldest first, exact total); without either, the bare array, X-Total-Count; bad paging: 400', async () => {
      for (let i = 0; i < 3; i++) await login('viewer', 'viewer123', `192.0.2.4${i}`, FIREFOX);
      const me = await login('viewer', 'viewer123', '192.0.2.49', IPHONE);
      const bare = await http().get('/auth/sessions').set(bearer(me.accessToken)).expect(200);
      const rows = bare.body.data as Array<{ tokenId: string; current: boolean }>;
      assert.ok(rows.length >= 4);
      assert.equal(bare.headers['x-total-count'], String(rows.length));
      const page = async (q: Record<string, number>) =>
        (await http().get('/auth/sessions').query(q).set(bearer(me.accessToken)).expect(200)).body.data;
      const second = await page({ page: 2, size: 2 });
      assert.deepEqual(second, { list: rows.slice(2, 4), total: rows.length, page: 2, size: 2 });
      assert.deepEqual(await page({ page: 1 }), { list: rows.slice(0, 20), total: rows.length, page: 1, size: 20 });
      assert.deepEqual((await page({ size: 1 })).list, rows.slice(0, 1));
      assert.deepEqual((await page({ page: 999, size: 500 })).list, []);
      for (const q of ['page=0', 'size=0', 'size=501', 'page=x']) {
        const r = await http().get(`/auth/sessions?${q}`).set(bearer(me.accessToken)).expect(400);
        assert.equal(r.body.code, 40000, q);
      }
    });

    it("another user's session, an unknown or malformed id: 404 and nothing ends; no token: 401; the log has the ending", async () => {
      const mine = await login('viewer', 'viewer123', '192.0.2.31', FIREFOX);
      const other = await login('admin', 'admin123', '192.0.2.32', FIREFOX);
      const otherId = ((await http().get('/auth/sessions').set(bearer(other.accessToken))).body.data as Array<{ tokenId: string }>)[0]
        ?.tokenId;
      assert.ok(otherId);
      for (const id of [otherId, '0123456789abcdef', 'not-a-token-id']) {
        const r = await http().delete(`/auth/sessions/${id}`).set(bearer(mine.accessToken)).expect(404);
        assert.equal(r.body.code, 40400);
      }
      await http().get('/auth/me').set(bearer(other.accessToken)).expect(200);
      await http().get('/auth/sessions').expect(401);
      await http().delete(`/auth/sessions/${otherId}`).expect(401);
      // Ending the session you call with is logging out.
      const ownId = (
        (await http().get('/auth/sessions').set(bearer(mine.accessToken))).body.data as Array<{ tokenId: string; current: boolean }>
      ).find((s) => s.current)?.tokenId;
      await http().delete(`/auth/sessions/${ownId}`).set(bearer(mine.accessToken)).expect(204);
      await http().get('/auth/me').set(bearer(mine.accessToken)).expect(401);
      await admin.container.get(QueuedAuditTrail).flush();
      const log = await http().get('/monitor/login-logs').query({ type: 'session-ended' }).set(bearer(other.accessToken)).expect(200);
      assert.ok(
        (log.body.data.list as Array<{ username: string; target: string }>).some((e) => e.username === 'viewer' && e.target === ownId),
        JSON.stringify(log.body.data.list),
      );
    });
  });
}
