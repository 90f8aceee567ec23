/**
 * Attacks on the session policy (issue 29), kept as regression tests: device types that are the
 * names of Object.prototype members, the NEW_DEVICE exclusivity through a refresh, bad inputs.
 */
import assert from 'node:assert/strict';
import { STORE_KINDS } from '../support/apps';
import { policyApp, reasonOf, type PolicyApp } from '../support/policy-apps';
import { requireRedis } from '../support/services';

const HOUR = 3_600_000;

for (const kind of STORE_KINDS) {
  for (const type of ['admin', 'web'] as const) {
    describe(`session policy attacks: ${type} app (${kind} store)`, function () {
      this.timeout(30_000);
      let app: PolicyApp | undefined;
      const use = async (overrides: Parameters<typeof policyApp>[2] = {}) => {
        app = await policyApp(type, kind, overrides, `attack-${type}`);
        return app;
      };
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
      });
      afterEach(async () => {
        await app?.close();
        app = undefined;
      });
      const reason = async (a: PolicyApp, token: string) => reasonOf(type, await a.use(token));

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
    });
  }
}
