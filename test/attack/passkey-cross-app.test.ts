/**
 * Attack: both apps check a WebAuthn answer against one list of origins (svc.webauthn.origins: the admin front end
 * and the web front end) under one relying-party id. So an assertion made on the consumer web front end is taken by
 * the admin app: a script injected into the member site (or the member site itself, if it is less trusted) can ask
 * an administrator's authenticator, on that site, for an answer to an admin challenge it fetched, and log in as the
 * administrator with it (passwordless: no password needed). Each app must accept only its own front ends' origins.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { TestInfra } from '../support/apps';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { bearer, lab, nextIp, passwordSession, reasonOf } from './support';

const ORIGIN = { admin: 'http://localhost:8080', web: 'http://localhost:8081' } as const;
const OTHER = { admin: 'web', web: 'admin' } as const;

describe("attack: a passkey answer made on the other app's front end", function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  for (const type of ['admin', 'web'] as const) {
    it(`${type}: a passwordless login and a second step answered on the ${OTHER[type]} origin are refused`, async function () {
      const l = await lab(this, 'memory');
      infra = l.infra;
      const a = l.app(type);
      const call = () => request(a.app.callback());
      const [username, password] = a.users[0] as [string, string];
      // The victim registers a passkey on their own app's front end.
      const auth = new SoftAuthenticator(ORIGIN[type]);
      const token = await passwordSession(a, username, password);
      const regOptions = a.data(await call().post('/auth/passkeys/options').set(bearer(token)).expect(200));
      await call()
        .post('/auth/passkeys')
        .set(bearer(token))
        .send({ response: auth.create(regOptions as Parameters<typeof auth.create>[0]) })
        .expect(201);

      // The attacker fetches a challenge of this app and has it answered on the other app's front end.
      const options = a.data(await call().post('/auth/passkey-login/options').set('X-Forwarded-For', nextIp()).expect(200));
      const foreign = auth.get(options as Parameters<typeof auth.get>[0], { origin: ORIGIN[OTHER[type]] });
      const login = await call().post('/auth/passkey-login').set('X-Forwarded-For', nextIp()).send({ response: foreign });
      assert.equal(reasonOf(a, login), 'passkey-invalid', `passwordless login with an answer from ${ORIGIN[OTHER[type]]}: ${login.text}`);

      const pending = a.data(await a.passwordLogin(username, password, nextIp())) as { mfaToken: string };
      const second = a.data(
        await call().post('/auth/mfa/webauthn/options').set('X-Forwarded-For', nextIp()).send({ mfaToken: pending.mfaToken }).expect(200),
      );
      const verify = await call()
        .post('/auth/mfa/verify')
        .set('X-Forwarded-For', nextIp())
        .send({
          mfaToken: pending.mfaToken,
          webauthn: auth.get(second as Parameters<typeof auth.get>[0], { origin: ORIGIN[OTHER[type]] }),
        });
      assert.equal(reasonOf(a, verify), 'passkey-invalid', `second step with an answer from ${ORIGIN[OTHER[type]]}: ${verify.text}`);
    });
  }
});
