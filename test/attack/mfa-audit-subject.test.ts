/**
 * Attack (detection): a wrong second factor means someone holds the account's password. The second step's failures
 * are recorded (mfa-verified, outcome failure, with their reason) but name no account: the route sets its subject
 * only after a success, and its body carries only the mfaToken. An administrator looking at an account's login log,
 * or a member at their own, does not see that someone who knows the password is guessing codes.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { bearer, enrolTotp, lab, nextIp, passwordSession, wrongCode } from './support';

describe('attack: failed second steps in the login log', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  for (const type of ['admin', 'web'] as const) {
    it(`${type}: a wrong code after the right password is in the log of the account it was for`, async function () {
      const l = await lab(this, 'memory');
      infra = l.infra;
      const a = l.app(type);
      const [username, password] = (type === 'admin' ? ['viewer', 'viewer123'] : a.users[0]) as [string, string];
      const { secret } = await enrolTotp(a, await passwordSession(a, username, password), l.clock);
      l.clock.advance(30_000);
      const { mfaToken } = a.data(await a.passwordLogin(username, password, nextIp())) as { mfaToken: string };
      const wrong = await request(a.app.callback())
        .post('/auth/mfa/verify')
        .set('X-Forwarded-For', nextIp())
        .send({ mfaToken, code: wrongCode(secret, l.clock.now(), 1) });
      assert.equal(wrong.status, 401, wrong.text);

      const admin = l.app('admin');
      const root = await passwordSession(admin, 'admin', 'admin123');
      const failures = async () =>
        (
          await request(admin.app.callback())
            .get('/monitor/login-logs')
            .query({ loginType: type, type: 'mfa-verified', outcome: 'failure' })
            .set(bearer(root))
            .expect(200)
        ).body.data.list as { username?: string; reason?: string }[];
      let seen: { username?: string; reason?: string }[] = [];
      for (let i = 0; i < 50 && seen.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await failures();
      }
      assert.equal(seen.length, 1, 'the failure is recorded');
      assert.equal(seen[0]?.reason, 'mfa-code-invalid');
      assert.equal(seen[0]?.username, username, `the failure names no account: ${JSON.stringify(seen[0])}`);
    });
  }
});
