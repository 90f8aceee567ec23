/**
 * Attacks on the session policy (issue 29), kept as regression tests: device types that are the
 * names of Object.prototype members, the NEW_DEVICE exclusivity through a refresh, bad inputs.
 */
import assert from 'node:assert/strict';
import { STORE_KINDS } from '../support/apps';
import { policyAppPerTest, reasonOf } from '../support/policy-apps';

const HOUR = 3_600_000;

for (const kind of STORE_KINDS) {
  for (const type of ['admin', 'web'] as const) {
    describe(`session policy attacks: ${type} app (${kind} store)`, function () {
      this.timeout(30_000);
      const { use, reason } = policyAppPerTest(type, kind, `attack-${type}`);

      for (const deviceType of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
        it(`is-concurrent=false: a lapsed "${deviceType}" login's refresh token is refused after a newer login of its type`, async () => {
          const a = await use({ 'session.is-concurrent': false, 'session.timeout': 3600 });
          const first = await a.tokens({ deviceType });
          a.clock.advance(2 * HOUR); // its access token lapsed: no index lists it any more
          const second = await a.tokens({ deviceType });
          assert.equal(await reason(a, second.accessToken), 'ok');
          const r = await a.refresh(first.refreshToken ?? '');
          assert.equal(reasonOf(type, r), 'refresh-token-invalid', r.text);
          assert.equal(await reason(a, second.accessToken), 'ok');
        });
      }

      if (type === 'web') {
        it('log out everywhere refuses the refresh token of a lapsed "constructor" login', async () => {
          const a = await use({ 'session.timeout': 3600 });
          const first = await a.tokens({ deviceType: 'constructor' });
          a.clock.advance(2 * HOUR);
          const second = await a.tokens({ deviceType: 'PC' });
          const out = await a.http().post('/user/logout-all').set('Authorization', `Bearer ${second.accessToken}`);
          assert.equal(out.status, 200, out.text);
          a.clock.advance(1);
          const r = await a.refresh(first.refreshToken ?? '');
          assert.equal(reasonOf(type, r), 'refresh-token-invalid', r.text);
        });
      }

      it('NEW_DEVICE: a lapsed login cannot come back by its refresh token while another login holds the account', async () => {
        const a = await use({ 'session.is-concurrent': false, 'session.replaced-login-exit-mode': 'NEW_DEVICE', 'session.timeout': 3600 });
        const first = await a.tokens({ deviceType: 'PC' });
        a.clock.advance(2 * HOUR);
        const second = await a.tokens({ deviceType: 'APP' });
        const r = await a.refresh(first.refreshToken ?? '');
        assert.equal(r.status, 409, r.text);
        assert.equal(reasonOf(type, r), 'already-logged-in');
        assert.equal(await reason(a, second.accessToken), 'ok');
        assert.equal((await a.ownSessions(second.accessToken)).length, 1);
      });

      it("max-login-count: an ended session's refresh token pushes nobody out once its tombstone has lapsed", async () => {
        const a = await use({ 'session.max-login-count': 1, 'session.timeout': 3600 });
        const unwrap = (r: { body: { data?: unknown } }) =>
          (type === 'admin' ? r.body.data : r.body) as { accessToken: string; refreshToken?: string };
        const ended = await a.tokens({ deviceType: 'PC' });
        let live: { accessToken: string; refreshToken?: string } = await a.tokens({ deviceType: 'PC' });
        assert.equal(await reason(a, ended.accessToken), 'token-invalid', 'over the cap: logged out');
        // The live login keeps refreshing; the ended one's tombstone lapses (expiry + the hour it answers token-expired).
        for (let i = 0; i < 3; i++) {
          a.clock.advance(0.8 * HOUR);
          const r = await a.refresh(live.refreshToken ?? '');
          assert.equal(r.status, 200, r.text);
          live = unwrap(r);
        }
        const r = await a.refresh(ended.refreshToken ?? '');
        assert.equal(r.status, 401, r.text);
        assert.equal(await reason(a, live.accessToken), 'ok', 'the refused refresh token ended no live session');
      });

      it('max-login-count: the refresh of a lapsed login counts as a login, ending the oldest beyond the cap (as documented)', async () => {
        const a = await use({ 'session.max-login-count': 2, 'session.timeout': 3600 });
        const lapsed = await a.tokens({ deviceType: 'PC' });
        a.clock.advance(2 * HOUR);
        const b = await a.tokens({ deviceType: 'PC' });
        a.clock.advance(1);
        const c = await a.tokens({ deviceType: 'PC' });
        assert.equal(await reason(a, b.accessToken), 'ok', 'the lapsed login counted no more');
        const r = await a.refresh(lapsed.refreshToken ?? '');
        assert.equal(r.status, 200, r.text);
        assert.equal(await reason(a, b.accessToken), 'token-invalid', 'the oldest beyond the cap ended');
        assert.equal(await reason(a, c.accessToken), 'ok');
        assert.equal((await a.ownSessions(c.accessToken)).length, 2);
      });

      if (kind === 'memory') {
        it('is-concurrent=false, CURR_DEVICE_TYPE: a client naming a new device type per login keeps every session (no cap)', async () => {
          const a = await use({ 'session.is-concurrent': false });
          const first = await a.tokens({ deviceType: 'D0' });
          for (let i = 1; i < 14; i++) await a.tokens({ deviceType: `D${i}` });
          assert.equal(
            (await a.ownSessions(first.accessToken)).length,
            14,
            'documented: bound it with is-concurrent=true or ALL_DEVICE_TYPE',
          );
        });

        it('bad device types and remember-me choices are 400 validation-failed on every route that takes them, never 500', async () => {
          const a = await use();
          const own = await a.tokens();
          const auth = { Authorization: `Bearer ${own.accessToken}` };
          const badTypes: unknown[] = ['', ' PC', 'PC ', 'P|C', 'PC\n', 'P\u0000C', 'ПК', 'X'.repeat(33), 1, null, ['PC'], { a: 1 }, true];
          const badRemember: unknown[] = ['false', 'true', 0, 1, null, [], {}];
          const results: string[] = [];
          const expect400 = (what: string, r: { status: number; text: string }) => {
            if (r.status !== 400) results.push(`${what}: ${r.status} ${r.text}`);
          };
          for (const deviceType of badTypes) {
            expect400(`login deviceType ${JSON.stringify(deviceType)}`, await a.login({ deviceType: deviceType as string }));
            const passkey = await a.http().post('/auth/passkey/login').send({ response: {}, deviceType });
            if (passkey.status >= 500) results.push(`passkey login deviceType ${JSON.stringify(deviceType)}: ${passkey.status}`);
            const path = type === 'admin' ? '/system/user/2/kickout' : '/user/logout-all';
            expect400(`${path} ${JSON.stringify(deviceType)}`, await a.http().post(path).set(auth).send({ deviceType }));
          }
          for (const rememberMe of badRemember) {
            expect400(`login rememberMe ${JSON.stringify(rememberMe)}`, await a.login({ rememberMe: rememberMe as boolean }));
          }
          if (type === 'admin') {
            for (const q of ['deviceType=', 'deviceType=P%7CC', 'deviceType=PC&deviceType=APP', 'deviceType=%00']) {
              expect400(`/monitor/online?${q}`, await a.http().get(`/monitor/online?${q}`).set(auth));
            }
          }
          assert.deepEqual(results, []);
          assert.equal(await reason(a, own.accessToken), 'ok');
        });
      }
    });
  }
}
