/**
 * The session policy of Sa-Token 1.45 over HTTP, on both apps and both stores: the login's device
 * type (body or User-Agent) on the session and in the listings, session.replaced-range and
 * session.replaced-login-exit-mode under is-concurrent=false (401 token-replaced, 409
 * already-logged-in), session.max-login-count with each session.overflow-logout-mode and the 401
 * reason it gives the ended session. Remember-me and ends by device: session-remember.test.ts.
 */
import assert from 'node:assert/strict';
import { STORE_KINDS } from '../support/apps';
import { policyAppPerTest, reasonOf } from '../support/policy-apps';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

for (const kind of STORE_KINDS) {
  for (const type of ['admin', 'web'] as const) {
    describe(`session policy over HTTP: ${type} app (${kind} store)`, function () {
      this.timeout(30_000);
      const { use, reason } = policyAppPerTest(type, kind, `policy-${type}`);

      it("a login keeps its device type: the body's, else the User-Agent's; listings show it", async () => {
        const a = await use({ 'session.max-login-count': -1 });
        const own = await a.tokens({ deviceType: 'APP', userAgent: DESKTOP });
        for (const userAgent of [IPHONE, DESKTOP, 'okhttp/4.12.0']) {
          a.clock.advance(1); // listings are in login order
          await a.tokens({ userAgent });
        }
        const listed = await a.ownSessions(own.accessToken);
        assert.deepEqual(
          listed.map((s) => s.deviceType),
          ['APP', 'H5', 'PC', 'APP'],
        );
        assert.equal(listed.filter((s) => s.current).length, 1);
        const bad = await a.login({ deviceType: 'P C' });
        assert.equal(bad.status, 400);
        assert.equal(reasonOf(type, bad), 'validation-failed');
        assert.equal((await a.login({ deviceType: 'X'.repeat(33) })).status, 400);
      });

      it('is-concurrent=false, CURR_DEVICE_TYPE (default): a login replaces only its device type (401 token-replaced)', async () => {
        const a = await use({ 'session.is-concurrent': false });
        const pc = await a.tokens({ deviceType: 'PC' });
        const app2 = await a.tokens({ deviceType: 'APP' });
        const pc2 = await a.tokens({ deviceType: 'PC' });
        assert.equal(await reason(a, pc.accessToken), 'token-replaced');
        assert.equal(await reason(a, app2.accessToken), 'ok');
        assert.equal(await reason(a, pc2.accessToken), 'ok');
        assert.equal(reasonOf(type, await a.refresh(pc.refreshToken ?? '')), 'refresh-token-invalid');
        const rotated = await a.refresh(app2.refreshToken ?? '');
        assert.equal(rotated.status, 200, 'the other device type keeps its refresh token');
      });

      it('is-concurrent=false, ALL_DEVICE_TYPE: a login replaces every session of the account', async () => {
        const a = await use({ 'session.is-concurrent': false, 'session.replaced-range': 'ALL_DEVICE_TYPE' });
        const pc = await a.tokens({ deviceType: 'PC' });
        const app2 = await a.tokens({ deviceType: 'APP' });
        assert.equal(await reason(a, pc.accessToken), 'token-replaced');
        assert.equal(await reason(a, app2.accessToken), 'ok');
        assert.equal(reasonOf(type, await a.refresh(pc.refreshToken ?? '')), 'refresh-token-invalid');
      });

      it('is-concurrent=false, NEW_DEVICE: a login while one is live is refused 409 already-logged-in; the old one stays', async () => {
        const a = await use({ 'session.is-concurrent': false, 'session.replaced-login-exit-mode': 'NEW_DEVICE' });
        const first = await a.tokens({ deviceType: 'PC' });
        const refused = await a.login({ deviceType: 'APP' });
        assert.equal(refused.status, 409, refused.text);
        assert.equal(reasonOf(type, refused), 'already-logged-in');
        assert.equal(await reason(a, first.accessToken), 'ok');
        const rotated = await a.refresh(first.refreshToken ?? '');
        assert.equal(rotated.status, 200, 'a refresh continues the live login, it is no new one');
        const next = type === 'admin' ? rotated.body.data : rotated.body;
        await a
          .http()
          .post('/auth/logout')
          .set('Authorization', `Bearer ${next.accessToken}`)
          .expect((r) => assert.ok(r.status < 300, r.text));
        assert.equal(await reason(a, (await a.tokens({ deviceType: 'APP' })).accessToken), 'ok', 'logged out there, a login gets in');
      });

      for (const [mode, expected] of [
        ['LOGOUT', 'token-invalid'],
        ['KICKOUT', 'token-kicked-out'],
        ['REPLACED', 'token-replaced'],
      ] as const) {
        it(`max-login-count=2, ${mode}: the oldest session answers 401 ${expected}; its refresh token is refused`, async () => {
          const a = await use({ 'session.max-login-count': 2, 'session.overflow-logout-mode': mode });
          const oldest = await a.tokens({ deviceType: 'PC' });
          const second = await a.tokens({ deviceType: 'APP' });
          const third = await a.tokens({ deviceType: 'PC' });
          assert.equal(await reason(a, oldest.accessToken), expected);
          assert.equal(await reason(a, second.accessToken), 'ok');
          assert.equal(await reason(a, third.accessToken), 'ok');
          assert.equal((await a.ownSessions(third.accessToken)).length, 2);
          assert.equal((await a.refresh(oldest.refreshToken ?? '')).status, 401);
          assert.equal(await reason(a, second.accessToken), 'ok', 'the refused refresh pushed no one out');
        });
      }

      it('max-login-count=-1: no cap', async () => {
        const a = await use({ 'session.max-login-count': -1 });
        const first = await a.tokens();
        for (let i = 0; i < 13; i++) await a.tokens();
        assert.equal(await reason(a, first.accessToken), 'ok');
        assert.equal((await a.ownSessions(first.accessToken)).length, 14);
      });

      it("the default cap is Sa-Token's 12: a 13th login logs the oldest out (token-invalid)", async () => {
        const a = await use();
        const first = await a.tokens();
        for (let i = 0; i < 12; i++) await a.tokens();
        assert.equal(await reason(a, first.accessToken), 'token-invalid');
        const last = await a.tokens();
        assert.equal((await a.ownSessions(last.accessToken)).length, 12);
      });
    });
  }
}
