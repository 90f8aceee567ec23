/**
 * Remember-me and ending the logins of one device type over HTTP, on both apps and both stores: a
 * login with `rememberMe: false` gets session.no-remember-timeout (at most session.timeout) and no
 * refresh token; `POST /user/logout-all {deviceType}` ends only that device type's sessions and
 * refresh tokens. And the one-session policy on the real clock (a login's own replacement cut-off
 * is no account change that would end it).
 */
import assert from 'node:assert/strict';
import { formatDateTime } from '../../src/application/shared/date-time';
import { STORE_KINDS } from '../support/apps';
import { policyAppPerTest, reasonOf } from '../support/policy-apps';

const DAY = 86_400_000;

for (const kind of STORE_KINDS) {
  for (const type of ['admin', 'web'] as const) {
    describe(`remember-me and ends by device over HTTP: ${type} app (${kind} store)`, function () {
      this.timeout(30_000);
      const { use, reason } = policyAppPerTest(type, kind, `remember-${type}`);

      it('rememberMe false: no refresh token, a session of session.no-remember-timeout (a day), then token-expired', async () => {
        const a = await use();
        const brief = await a.tokens({ rememberMe: false });
        assert.equal('refreshToken' in brief, false, JSON.stringify(brief));
        assert.equal(brief.expires, formatDateTime(a.clock.now() + DAY, 'UTC'));
        const kept = await a.tokens({ rememberMe: true });
        assert.equal(typeof kept.refreshToken, 'string');
        assert.equal(kept.expires, formatDateTime(a.clock.now() + 7 * DAY, 'UTC'));
        const byDefault = await a.tokens();
        assert.equal(typeof byDefault.refreshToken, 'string', 'rememberMe defaults to true');
        a.clock.advance(DAY + 1000);
        assert.equal(await reason(a, brief.accessToken), 'token-expired');
        assert.equal(await reason(a, kept.accessToken), 'ok');
        const bad = await a.login({ rememberMe: 'no' as unknown as boolean });
        assert.equal(reasonOf(type, bad), 'validation-failed');
      });

      it('no-remember-timeout is cut to session.timeout', async () => {
        const a = await use({ 'session.timeout': 3600, 'session.no-remember-timeout': 86400, 'svc.refresh-token.ttl-seconds': 7200 });
        const brief = await a.tokens({ rememberMe: false });
        assert.equal(brief.expires, formatDateTime(a.clock.now() + 3_600_000, 'UTC'));
      });

      it('is-concurrent=false on the real clock: each login gets in, the one before it is replaced', async () => {
        const a = await use({ 'session.is-concurrent': false }, true);
        const first = await a.tokens({ deviceType: 'PC' });
        const second = await a.tokens({ deviceType: 'PC' });
        assert.equal(await reason(a, first.accessToken), 'token-replaced');
        assert.equal(await reason(a, second.accessToken), 'ok');
        assert.equal((await a.refresh(second.refreshToken ?? '')).status, 200);
      });

      if (type === 'web') {
        it("POST /user/logout-all {deviceType}: only that device type's sessions and refresh tokens end", async () => {
          const a = await use();
          const pc = await a.tokens({ deviceType: 'PC' });
          const app1 = await a.tokens({ deviceType: 'APP' });
          const app2 = await a.tokens({ deviceType: 'APP' });
          const r = await a.http().post('/user/logout-all').set('Authorization', `Bearer ${pc.accessToken}`).send({ deviceType: 'APP' });
          assert.equal(r.status, 200, r.text);
          assert.deepEqual(r.body, { endedSessions: 2 });
          assert.equal(await reason(a, app1.accessToken), 'token-invalid');
          assert.equal(await reason(a, app2.accessToken), 'token-invalid');
          assert.equal(await reason(a, pc.accessToken), 'ok');
          assert.equal((await a.refresh(app1.refreshToken ?? '')).status, 401);
          const rotated = await a.refresh(pc.refreshToken ?? '');
          assert.equal(rotated.status, 200, 'the other device type keeps its refresh token');
          const bad = await a
            .http()
            .post('/user/logout-all')
            .set('Authorization', `Bearer ${rotated.body.accessToken}`)
            .send({ deviceType: '' });
          assert.equal(reasonOf(type, bad), 'validation-failed');
          const all = await a.http().post('/user/logout-all').set('Authorization', `Bearer ${rotated.body.accessToken}`);
          assert.deepEqual(all.body, { endedSessions: 1 }, 'without a device type: every session');
        });
      }
    });
  }
}
