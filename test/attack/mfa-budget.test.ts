/**
 * Attack: someone who knows the password walks the TOTP code space. The issue says wrong codes spend the account's
 * failure budget "so the 10^6 code space cannot be walked"; but the password step's success clears that budget
 * (Login.attempt calls AccountLock.succeed before it knows a second factor is still owed), so a fresh mfaToken per few
 * guesses resets the count and the guessing never stops.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { STORE_KINDS, type TestInfra } from '../support/apps';
import { enrolTotp, lab, nextIp, passwordSession, reasonOf, wrongCode, type Lab } from './support';

const MAX_FAILURES = 3;

for (const kind of STORE_KINDS) {
  describe(`attack: walking TOTP codes behind fresh mfaTokens (${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra | undefined;
    afterEach(async () => infra?.dispose());

    for (const type of ['admin', 'web'] as const) {
      it(`${type}: wrong codes over several mfaTokens stop at the account's budget (${MAX_FAILURES})`, async function () {
        const l: Lab = await lab(this, kind, { 'svc.login.max-failures': MAX_FAILURES, 'svc.login.captcha-max-failures': 0 });
        infra = l.infra;
        const a = l.app(type);
        const [username, password] = a.users[0] as [string, string];
        const { secret } = await enrolTotp(a, await passwordSession(a, username, password), l.clock);
        l.clock.advance(30_000);

        let counted = 0;
        const outcomes: string[] = [];
        for (let round = 0; round < 4; round++) {
          const login = await a.passwordLogin(username, password, nextIp());
          outcomes.push(`login:${reasonOf(a, login)}`);
          if (login.status !== 200) break;
          const { mfaToken } = a.data(login) as { mfaToken: string };
          for (let i = 0; i < MAX_FAILURES - 1; i++) {
            const res = await request(a.app.callback())
              .post('/auth/mfa/verify')
              .set('X-Forwarded-For', nextIp())
              .send({ mfaToken, code: wrongCode(secret, l.clock.now(), round * 10 + i) });
            outcomes.push(reasonOf(a, res));
            if (reasonOf(a, res) === 'mfa-code-invalid') counted++;
          }
        }
        assert.ok(
          counted <= MAX_FAILURES,
          `${counted} wrong codes were checked against a budget of ${MAX_FAILURES}: ${outcomes.join(' ')}`,
        );
      });
    }
  });
}
