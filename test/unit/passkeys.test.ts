/**
 * Passkeys and RegisterPasskey on the real verifier, the in-memory passkey and key-value stores and
 * the software authenticator: the challenges are single use, expire, and are bound to the login
 * type, the ceremony and the user; an assertion proves its credential's user only when the
 * credential, its user handle, the user verification asked for and a forward counter all agree.
 */
import assert from 'node:assert/strict';
import { InMemoryPasskeyStore } from '../../src/adapters/directory/in-memory-passkey-store';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { InMemoryKeyValueStore } from '../../src/adapters/memory/key-value-store';
import { InMemoryTotpStore } from '../../src/adapters/memory/totp-store';
import { SimpleWebAuthnVerifier } from '../../src/adapters/webauthn/simple-webauthn-verifier';
import { PasskeyChallenges } from '../../src/application/mfa/passkey-challenges';
import { legacyUserHandleOf, Passkeys, userHandleOf } from '../../src/application/mfa/passkeys';
import { RegisterPasskey } from '../../src/application/mfa/register-passkey';
import { RequiredFactor } from '../../src/application/mfa/required-factor';
import { isDomainError, type Reason } from '../../src/domain/errors';
import type { LoginType } from '../../src/domain/login-type';
import { TEST_RP } from '../contract/webauthn-verifier.contract';
import { FakeClock } from '../support/fake-clock';
import { SoftAuthenticator } from '../support/soft-authenticator';

const TTL_SECONDS = 300;
const ORIGIN = TEST_RP.origins[0];

function setup() {
  const clock = new FakeClock();
  const store = new InMemoryPasskeyStore();
  const verifier = new SimpleWebAuthnVerifier(TEST_RP);
  const challenges = new PasskeyChallenges(new InMemoryKeyValueStore(clock), verifier, { challengeTtlSeconds: TTL_SECONDS });
  const totp = new InMemoryTotpStore();
  const settings = { requiredRoles: [] as string[] };
  const required = new RequiredFactor(totp, store, settings);
  const passkeys = new Passkeys(store, verifier, clock, silentLogger, { timeZone: 'UTC' }, challenges, required);
  const register = new RegisterPasskey(store, verifier, clock, silentLogger, { timeZone: 'UTC' }, challenges);
  const user = (userId: string) => ({ userId, username: `user${userId}`, displayName: `User ${userId}` });
  /** Registers a passkey of `userId` on `auth` and returns its id. */
  async function enrol(auth: SoftAuthenticator, userId = '1', loginType: LoginType = 'admin', name?: string): Promise<string> {
    const options = await passkeys.registrationOptions(loginType, user(userId));
    return (await register.execute({ loginType, userId, response: auth.create(options), name })).id;
  }
  return { clock, store, totp, settings, passkeys, register, user, enrol };
}

const holder = (userId: string, roles: string[] = []) => ({ userId, roles });
const refused = (reason: Reason) => (e: unknown) => isDomainError(e) && e.reason === reason;

describe('Passkeys: registration', () => {
  it('registers a passkey under its name (blank: "Passkey"), lists it, and excludes it from the next options', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const first = await s.enrol(auth, '1', 'admin', '  Work laptop  ');
    const second = await s.enrol(auth, '1', 'admin', '   ');
    const list = await s.passkeys.list('admin', '1');
    assert.deepEqual(
      list.map((p) => [p.id, p.name, p.createdAt, p.lastUsedAt]),
      [
        [first, 'Work laptop', '2026/01/01 00:00:00', null],
        [second, 'Passkey', '2026/01/01 00:00:00', null],
      ],
    );
    const options = await s.passkeys.registrationOptions('admin', s.user('1'));
    assert.deepEqual(
      options.excludeCredentials?.map((c) => c.id),
      [first, second],
    );
    assert.equal(options.user.id, userHandleOf('admin', '1'));
    assert.equal(Buffer.from(options.user.id, 'base64url').length, 32, 'a SHA-256, whatever the id');
    const member = await s.passkeys.registrationOptions('web', s.user('1'));
    assert.notEqual(member.user.id, options.user.id, 'admin 1 and member 1 have different handles under the one relying party');
    assert.equal(options.timeout, TTL_SECONDS * 1000);
    assert.deepEqual(await s.passkeys.list('web', '1'), [], 'the login types are apart');
  });

  it('a registration challenge is single use, expires, and belongs to its user, login type and ceremony', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const options = await s.passkeys.registrationOptions('admin', s.user('1'));
    const response = auth.create(options);
    await assert.rejects(s.register.execute({ loginType: 'admin', userId: '2', response }), refused('passkey-invalid'), 'another user');
    await assert.rejects(
      s.register.execute({ loginType: 'admin', userId: '1', response }),
      refused('passkey-invalid'),
      'spent by that try',
    );

    const again = auth.create(await s.passkeys.registrationOptions('admin', s.user('1')));
    await assert.rejects(s.register.execute({ loginType: 'web', userId: '1', response: again }), refused('passkey-invalid'), 'web');

    const late = auth.create(await s.passkeys.registrationOptions('admin', s.user('1')));
    s.clock.advance(TTL_SECONDS * 1000 + 1);
    await assert.rejects(s.register.execute({ loginType: 'admin', userId: '1', response: late }), refused('passkey-invalid'), 'expired');

    const login = await s.passkeys.authenticationOptions('admin', null);
    const overLogin = auth.create({ ...options, challenge: login.challenge });
    await assert.rejects(
      s.register.execute({ loginType: 'admin', userId: '1', response: overLogin }),
      refused('passkey-invalid'),
      'ceremony',
    );
    assert.deepEqual(await s.passkeys.list('admin', '1'), []);

    const ok = auth.create(await s.passkeys.registrationOptions('admin', s.user('1')));
    await s.register.execute({ loginType: 'admin', userId: '1', response: ok });
    await assert.rejects(s.register.execute({ loginType: 'admin', userId: '1', response: ok }), refused('passkey-invalid'), 'replayed');
    assert.equal((await s.passkeys.list('admin', '1')).length, 1);
  });

  it('refuses an answer from an origin the relying party does not list, and a credential id registered already', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const options = await s.passkeys.registrationOptions('web', s.user('1'));
    const evil = auth.create(options, { origin: 'https://evil.example' });
    await assert.rejects(s.register.execute({ loginType: 'web', userId: '1', response: evil }), refused('passkey-invalid'));
    const id = await s.enrol(auth, '1', 'web');
    const sameId = auth.create(await s.passkeys.registrationOptions('web', s.user('2')), { credentialId: id });
    await assert.rejects(s.register.execute({ loginType: 'web', userId: '2', response: sameId }), refused('passkey-invalid'));
    assert.deepEqual(await s.passkeys.list('web', '2'), []);
  });

  it("removes the user's own passkey; another user's or an unknown id is not-found", async () => {
    const s = setup();
    const id = await s.enrol(new SoftAuthenticator(ORIGIN), '1');
    await assert.rejects(s.passkeys.remove('admin', holder('2'), id), refused('not-found'));
    await assert.rejects(s.passkeys.remove('web', holder('1'), id), refused('not-found'));
    await s.passkeys.remove('admin', holder('1'), id);
    await assert.rejects(s.passkeys.remove('admin', holder('1'), id), refused('not-found'));
    assert.deepEqual(await s.passkeys.list('admin', '1'), []);
  });

  it('the last second factor of a holder of a required role stays (last-required-factor); another factor lets it go', async () => {
    const s = setup();
    s.settings.requiredRoles.push('admin');
    const auth = new SoftAuthenticator(ORIGIN);
    const [first, second] = [await s.enrol(auth, '1'), await s.enrol(auth, '1')];
    await s.passkeys.remove('admin', holder('1', ['admin']), first);
    await assert.rejects(s.passkeys.remove('admin', holder('1', ['viewer', 'admin']), second), refused('last-required-factor'));
    assert.equal((await s.passkeys.list('admin', '1')).length, 1, 'kept');
    await assert.rejects(s.passkeys.remove('admin', holder('1', ['admin']), 'no-such-id'), refused('not-found'), 'an unknown id first');
    // A TOTP factor counts; a pending setup does not.
    await s.totp.savePending('admin', '1', 'sealed', s.clock.now() + 60_000);
    await assert.rejects(s.passkeys.remove('admin', holder('1', ['admin']), second), refused('last-required-factor'));
    assert.ok(await s.totp.activate('admin', '1', { pendingSecret: 'sealed', lastStep: 1, recoveryCodeHashes: [] }, s.clock.now()));
    await s.passkeys.remove('admin', holder('1', ['admin']), second);
    // A holder of no required role removes their last one.
    const web = await s.enrol(auth, '1', 'web');
    await s.passkeys.remove('web', holder('1', ['member']), web);
    assert.deepEqual(await s.passkeys.list('web', '1'), []);
  });
});

describe('Passkeys: authentication', () => {
  it('passwordless: any discoverable credential, user verification required; the credential names the user', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const id = await s.enrol(auth, '7');
    const options = await s.passkeys.authenticationOptions('admin', null);
    assert.deepEqual(options.allowCredentials ?? [], []);
    assert.equal(options.userVerification, 'required');
    s.clock.advance(1000);
    assert.deepEqual(await s.passkeys.verifyAuthentication('admin', auth.get(options), null), {
      userId: '7',
      credentialId: id,
      userVerified: true,
      method: 'hwk',
    });
    assert.equal((await s.passkeys.list('admin', '7'))[0]?.lastUsedAt, '2026/01/01 00:00:01');

    const noUv = await s.passkeys.authenticationOptions('admin', null);
    await assert.rejects(s.passkeys.verifyAuthentication('admin', auth.get(noUv, { uv: false }), null), refused('passkey-invalid'));
    const noHandle = await s.passkeys.authenticationOptions('admin', null);
    const anonymous = auth.get(noHandle);
    const { userHandle: _dropped, ...withoutHandle } = anonymous.response;
    await assert.rejects(
      s.passkeys.verifyAuthentication('admin', { ...anonymous, response: withoutHandle }, null),
      refused('passkey-invalid'),
    );
  });

  it("second factor: the user's credentials only, verification preferred; another user's challenge or credential is refused", async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const mine = await s.enrol(auth, '1');
    const theirs = await s.enrol(auth, '2');
    await assert.rejects(s.passkeys.authenticationOptions('admin', '3'), refused('passkey-invalid'), 'no passkey to answer with');
    const options = await s.passkeys.authenticationOptions('admin', '1');
    assert.deepEqual(
      options.allowCredentials?.map((c) => c.id),
      [mine],
    );
    assert.equal(options.userVerification, 'preferred');
    const proof = await s.passkeys.verifyAuthentication('admin', auth.get(options, { uv: false }), '1');
    assert.deepEqual(proof, { userId: '1', credentialId: mine, userVerified: false, method: 'hwk' });

    const other = await s.passkeys.authenticationOptions('admin', '1');
    await assert.rejects(
      s.passkeys.verifyAuthentication('admin', auth.get(other, { credentialId: theirs }), '1'),
      refused('passkey-invalid'),
    );
    const forTwo = await s.passkeys.authenticationOptions('admin', '2');
    await assert.rejects(s.passkeys.verifyAuthentication('admin', auth.get(forTwo), '1'), refused('passkey-invalid'), "user 2's challenge");
    const boundToOne = await s.passkeys.authenticationOptions('admin', '1');
    await assert.rejects(
      s.passkeys.verifyAuthentication('admin', auth.get(boundToOne), null),
      refused('passkey-invalid'),
      'not passwordless',
    );
    const passwordless = await s.passkeys.authenticationOptions('admin', null);
    await assert.rejects(
      s.passkeys.verifyAuthentication('admin', auth.get(passwordless, { credentialId: mine }), '1'),
      refused('passkey-invalid'),
    );
  });

  it('a synced passkey (backup eligible) proves swk, a single-device one hwk (RFC 8176)', async () => {
    const s = setup();
    const synced = new SoftAuthenticator(ORIGIN, true, true);
    const id = await s.enrol(synced, '4', 'web');
    assert.deepEqual(
      (await s.passkeys.list('web', '4')).map((p) => [p.deviceType, p.backedUp]),
      [['multiDevice', true]],
    );
    const proof = await s.passkeys.verifyAuthentication('web', synced.get(await s.passkeys.authenticationOptions('web', null)), null);
    assert.deepEqual(proof, { userId: '4', credentialId: id, userVerified: true, method: 'swk' });
  });

  it('an authentication challenge is single use, expires and stays in its login type', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    await s.enrol(auth, '1', 'web');
    const options = await s.passkeys.authenticationOptions('web', null);
    const response = auth.get(options);
    await assert.rejects(s.passkeys.verifyAuthentication('admin', response, null), refused('passkey-invalid'), 'admin');
    const fresh = await s.passkeys.authenticationOptions('web', null);
    const answer = auth.get(fresh);
    await s.passkeys.verifyAuthentication('web', answer, null);
    await assert.rejects(s.passkeys.verifyAuthentication('web', answer, null), refused('passkey-invalid'), 'replayed');
    const late = await s.passkeys.authenticationOptions('web', null);
    s.clock.advance(TTL_SECONDS * 1000 + 1);
    await assert.rejects(s.passkeys.verifyAuthentication('web', auth.get(late), null), refused('passkey-invalid'), 'expired');
  });

  it('refuses a cloned authenticator (a counter that does not move forward), a forged user handle and an unknown credential', async () => {
    const s = setup();
    const auth = new SoftAuthenticator(ORIGIN);
    const id = await s.enrol(auth, '1');
    for (let i = 0; i < 3; i++)
      await s.passkeys.verifyAuthentication('admin', auth.get(await s.passkeys.authenticationOptions('admin', null)), null);
    const stored = (await s.store.find('admin', id))?.counter ?? 0;
    assert.equal(stored, 3);
    const clone = auth.get(await s.passkeys.authenticationOptions('admin', null), { counter: 2 });
    await assert.rejects(s.passkeys.verifyAuthentication('admin', clone, null), refused('passkey-invalid'));
    assert.equal((await s.store.find('admin', id))?.counter, 3);

    const forged = auth.get(await s.passkeys.authenticationOptions('admin', null));
    for (const userHandle of [userHandleOf('admin', '2'), userHandleOf('web', '1'), legacyUserHandleOf('2')]) {
      const wrongHandle = { ...forged, response: { ...forged.response, userHandle } };
      await assert.rejects(s.passkeys.verifyAuthentication('admin', wrongHandle, null), refused('passkey-invalid'), userHandle);
    }
    // A passkey registered while the handle was the id's bytes still names its user.
    const legacy = auth.get(await s.passkeys.authenticationOptions('admin', null));
    const old = { ...legacy, response: { ...legacy.response, userHandle: legacyUserHandleOf('1') } };
    assert.equal((await s.passkeys.verifyAuthentication('admin', old, null)).userId, '1');

    await s.passkeys.remove('admin', holder('1'), id);
    const gone = auth.get(await s.passkeys.authenticationOptions('admin', null), { credentialId: id });
    await assert.rejects(s.passkeys.verifyAuthentication('admin', gone, null), refused('passkey-invalid'));
  });
});
