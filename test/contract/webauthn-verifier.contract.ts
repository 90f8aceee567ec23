/**
 * One contract for the WebAuthnVerifier port, run against every adapter with the software
 * authenticator of test/support: options, registration (attestation `none`, ES256) and assertions,
 * and each thing it must refuse: another origin or relying party, another challenge, no user
 * verification when it is required, a signature counter that does not move forward.
 */
import assert from 'node:assert/strict';
import type { KnownCredential, NewCredential, WebAuthnVerifier } from '../../src/application/ports/webauthn-verifier';
import { SoftAuthenticator } from '../support/soft-authenticator';

/** The relying party every adapter under test is made with. */
export const TEST_RP = { id: 'localhost', name: 'authguard test', origins: ['http://localhost:8080', 'http://localhost:8081'] } as const;
const ORIGIN = TEST_RP.origins[0];
const HANDLE = Buffer.from('42').toString('base64url');

const known = (c: NewCredential, counter = c.counter): KnownCredential => ({
  id: c.id,
  publicKey: c.publicKey,
  counter,
  transports: c.transports,
});

export function describeWebAuthnVerifierContract(name: string, rp: WebAuthnVerifier): void {
  describe(`WebAuthnVerifier contract: ${name}`, () => {
    const creation = () =>
      rp.creationOptions({ userHandle: HANDLE, userName: 'ann', userDisplayName: 'Ann', excludeCredentials: [], timeoutMs: 120_000 });

    async function registered(auth = new SoftAuthenticator(ORIGIN)): Promise<{ auth: SoftAuthenticator; credential: NewCredential }> {
      const options = await creation();
      const out = await rp.verifyRegistration(auth.create(options), { challenge: options.challenge, requireUserVerification: false });
      assert.ok(out.ok, out.ok ? '' : out.why);
      return { auth, credential: out.value };
    }

    it('creation options name the relying party, the user handle and the credentials to exclude; a fresh challenge each time', async () => {
      const a = await rp.creationOptions({
        userHandle: HANDLE,
        userName: 'ann',
        userDisplayName: 'Ann',
        excludeCredentials: [{ id: 'AAEC', transports: ['usb', 'no-such-transport'] }],
        timeoutMs: 90_000,
      });
      assert.deepEqual(a.rp, { id: 'localhost', name: 'authguard test' });
      assert.deepEqual(a.user, { id: HANDLE, name: 'ann', displayName: 'Ann' });
      assert.deepEqual(a.excludeCredentials, [{ id: 'AAEC', type: 'public-key', transports: ['usb'] }]);
      assert.equal(a.timeout, 90_000);
      assert.equal(a.attestation, 'none');
      assert.deepEqual(
        a.pubKeyCredParams.map((p) => p.alg),
        [-8, -7, -257],
      );
      assert.match(a.challenge, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual((await creation()).challenge, a.challenge);
    });

    it('request options: allowCredentials as given (empty for a discoverable credential) and the user verification asked for', async () => {
      const some = await rp.requestOptions({
        allowCredentials: [{ id: 'AAEC', transports: ['internal'] }],
        userVerification: 'preferred',
        timeoutMs: 1000,
      });
      assert.deepEqual(some.allowCredentials, [{ id: 'AAEC', type: 'public-key', transports: ['internal'] }]);
      assert.equal(some.rpId, 'localhost');
      const none = await rp.requestOptions({ allowCredentials: [], userVerification: 'required', timeoutMs: 1000 });
      assert.deepEqual(none.allowCredentials ?? [], []);
      assert.equal(none.userVerification, 'required');
    });

    it('verifies a registration: the credential id, its COSE key, counter, transports and device type', async () => {
      const { auth, credential } = await registered();
      assert.ok(auth.credentials.has(credential.id));
      assert.equal(credential.counter, 0);
      assert.deepEqual(credential.transports, ['internal']);
      assert.equal(credential.deviceType, 'singleDevice');
      assert.equal(credential.backedUp, false);
      assert.equal(credential.userVerified, true);
      assert.match(credential.publicKey, /^[A-Za-z0-9_-]+$/);
    });

    it('refuses a registration from another origin, for another relying party, or over another challenge', async () => {
      const options = await creation();
      const auth = new SoftAuthenticator(ORIGIN);
      const expected = { challenge: options.challenge, requireUserVerification: false };
      for (const knobs of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { challenge: (await creation()).challenge }]) {
        const out = await rp.verifyRegistration(auth.create(options, knobs), expected);
        assert.equal(out.ok, false, JSON.stringify(knobs));
      }
      const noUv = await rp.verifyRegistration(auth.create(options, { uv: false }), { ...expected, requireUserVerification: true });
      assert.equal(noUv.ok, false);
    });

    it('verifies an assertion and reports the new counter; a counter that does not move forward is refused (a clone)', async () => {
      const { auth, credential } = await registered();
      const options = await rp.requestOptions({ allowCredentials: [], userVerification: 'required', timeoutMs: 1000 });
      const expected = { challenge: options.challenge, requireUserVerification: true, credential: known(credential) };
      const first = await rp.verifyAuthentication(auth.get(options), expected);
      assert.ok(first.ok && first.value.newCounter === 1 && first.value.userVerified && first.value.credentialId === credential.id);
      const after = { ...expected, credential: known(credential, 5) };
      for (const counter of [4, 5])
        assert.equal((await rp.verifyAuthentication(auth.get(options, { counter }), after)).ok, false, `counter ${counter}`);
      const ok = await rp.verifyAuthentication(auth.get(options, { counter: 6 }), after);
      assert.ok(ok.ok && ok.value.newCounter === 6);
    });

    it('accepts 0 after 0 (an authenticator that does not count), but not 0 after a counted use', async () => {
      const { auth, credential } = await registered(new SoftAuthenticator(ORIGIN, false));
      const options = await rp.requestOptions({ allowCredentials: [], userVerification: 'required', timeoutMs: 1000 });
      const expected = { challenge: options.challenge, requireUserVerification: true, credential: known(credential, 0) };
      for (let i = 0; i < 2; i++) assert.ok((await rp.verifyAuthentication(auth.get(options), expected)).ok);
      assert.equal((await rp.verifyAuthentication(auth.get(options), { ...expected, credential: known(credential, 3) })).ok, false);
    });

    it('refuses an assertion over another challenge or origin, without user verification, or naming another credential', async () => {
      const { auth, credential } = await registered();
      const options = await rp.requestOptions({ allowCredentials: [], userVerification: 'required', timeoutMs: 1000 });
      const expected = { challenge: options.challenge, requireUserVerification: true, credential: known(credential) };
      assert.equal((await rp.verifyAuthentication(auth.get(options, { challenge: 'AAAA' }), expected)).ok, false);
      assert.equal((await rp.verifyAuthentication(auth.get(options, { origin: 'https://evil.example' }), expected)).ok, false);
      assert.equal((await rp.verifyAuthentication(auth.get(options, { rpId: 'evil.example' }), expected)).ok, false);
      assert.equal((await rp.verifyAuthentication(auth.get(options, { uv: false }), expected)).ok, false);
      // without a required verification, the same assertion passes and says so
      const lax = await rp.verifyAuthentication(auth.get(options, { uv: false }), { ...expected, requireUserVerification: false });
      assert.ok(lax.ok && !lax.value.userVerified);
      const other = await registered(auth);
      assert.equal((await rp.verifyAuthentication(auth.get(options, { credentialId: other.credential.id }), expected)).ok, false);
    });

    it('reads the challenge a response claims, and null from unreadable client data', async () => {
      const options = await creation();
      const response = new SoftAuthenticator(ORIGIN).create(options);
      assert.equal(rp.claimedChallenge(response), options.challenge);
      for (const clientDataJSON of [
        '',
        '!!',
        Buffer.from('[1]').toString('base64url'),
        Buffer.from('{"challenge":7}').toString('base64url'),
      ])
        assert.equal(rp.claimedChallenge({ ...response, response: { ...response.response, clientDataJSON } }), null);
    });
  });
}
