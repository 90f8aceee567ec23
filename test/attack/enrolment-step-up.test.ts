/**
 * Attack: a stolen access token (an XSS, a leaked log, a shared machine) adds a factor without proving anything.
 * Removing a factor needs a recent authentication (step-up), adding one does not (POST /auth/passkeys/options and
 * POST /auth/passkeys, POST /auth/mfa/totp/setup and /confirm take any logged-in session). So the token becomes:
 *
 *  - a passkey of the attacker's: a passwordless login whenever they like, which survives the owner's password
 *    change and the end of the stolen session;
 *  - a TOTP factor of the attacker's on an account that had none: the owner's next password login asks for a code
 *    only the attacker has (the recovery codes went to the attacker too), and no route lets an administrator remove
 *    a user's factor.
 *
 * ASVS 5.0 7.5.1 asks for re-authentication before changing authentication factors; the session's own authTime is
 * older than svc.step-up.max-age-seconds here, so the step-up guard would answer 403 step-up-required.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { bearer, lab, passwordSession, reasonOf } from './support';

const ORIGIN = { admin: 'http://localhost:8080', web: 'http://localhost:8081' } as const;

describe('attack: adding a factor with a session that has not proved its user recently', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  for (const type of ['admin', 'web'] as const) {
    it(`${type}: registering a passkey and setting up TOTP on an old session ask for a step-up`, async function () {
      const l = await lab(this, 'memory');
      infra = l.infra;
      const a = l.app(type);
      const call = () => request(a.app.callback());
      const [username, password] = a.users[0] as [string, string];
      const stolen = await passwordSession(a, username, password);
      l.clock.advance(301_000); // older than svc.step-up.max-age-seconds (300): a removal would need a step-up
      assert.equal(reasonOf(a, await call().delete('/auth/passkeys/nope').set(bearer(stolen))), 'step-up-required');

      const options = await call().post('/auth/passkeys/options').set(bearer(stolen));
      if (reasonOf(a, options) !== 'step-up-required') {
        const attacker = new SoftAuthenticator(ORIGIN[type]);
        const reg = await call()
          .post('/auth/passkeys')
          .set(bearer(stolen))
          .send({ response: attacker.create(a.data(options) as Parameters<typeof attacker.create>[0]), name: 'not mine' });
        assert.equal(reasonOf(a, reg), 'step-up-required', `the stolen session registered the attacker's passkey: ${reg.text}`);
      }
      const setup = await call().post('/auth/mfa/totp/setup').set(bearer(stolen));
      assert.equal(reasonOf(a, setup), 'step-up-required', `the stolen session set up the attacker's TOTP: ${setup.text.slice(0, 80)}`);
    });
  }
});
