/**
 * The passwordless login of both apps on both stores: options for a discoverable credential with
 * user verification required, then the assertion a software authenticator makes. It answers what
 * the app's password login answers (and sets the device cookie); a replayed answer, one from
 * another origin, without user verification, or from a clone whose counter fell behind is 401
 * passkey-invalid; a disabled account is refused like at a password login; the login rate limit
 * is the password login's.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { passkeyApps, passwordToken, type PasskeyApp } from '../support/passkey-apps';
import { requireRedis } from '../support/services';
import { SoftAuthenticator } from '../support/soft-authenticator';

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let ipCounter = 0;
const nextIp = () => `10.30.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

for (const kind of STORE_KINDS) {
  describe(`passwordless passkey login over HTTP (${kind} store)`, function () {
    this.timeout(30000);
    let infra: TestInfra;
    let apps: PasskeyApp[];
    let built: ReturnType<typeof buildBoth>;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1' }, kind);
      infra = testInfra(config, { label: 'passkey-login' });
      built = buildBoth(config, infra);
      await request(built.web.app.callback())
        .post('/auth/register')
        .set('X-Forwarded-For', nextIp())
        .send({ username: 'carol.k', password: 'carol-pass-123' })
        .expect(201);
      apps = passkeyApps(built, ['carol.k', 'carol-pass-123']);
    });
    after(async () => infra?.dispose());

    for (const type of ['admin', 'web'] as const) {
      describe(`${type} app`, () => {
        const app = () => apps.find((a) => a.type === type) as PasskeyApp;
        const call = () => request(app().app.callback());
        const whoAmI = type === 'admin' ? '/auth/me' : '/user/profile';

        /** A user's password session and a passkey of theirs on `auth`. */
        async function enrolled(user = 0, auth = new SoftAuthenticator(app().origin)) {
          const [username, password] = app().users[user] as [string, string];
          const token = await passwordToken(app(), username, password, nextIp());
          const options = app().data(await call().post('/auth/passkeys/options').set(bearer(token)).expect(200));
          const reg = await call()
            .post('/auth/passkeys')
            .set(bearer(token))
            .send({ response: auth.create(options as { challenge: string; rp: { id?: string }; user: { id: string } }) })
            .expect(201);
          return { auth, username, password, token, id: (app().data(reg) as { id: string }).id };
        }

        async function loginOptions(ip = nextIp()) {
          const res = await call().post('/auth/passkey-login/options').set('X-Forwarded-For', ip).expect(200);
          return app().data(res) as { challenge: string; allowCredentials?: { id: string }[]; userVerification?: string };
        }

        const passkeyLogin = (response: unknown, ip = nextIp()) =>
          call().post('/auth/passkey-login').set('X-Forwarded-For', ip).send({ response });

        it('logs in with a discoverable passkey and answers what a password login answers, device cookie included', async () => {
          const { auth, username, password } = await enrolled();
          const options = await loginOptions();
          assert.deepEqual(options.allowCredentials ?? [], []);
          assert.equal(options.userVerification, 'required');
          const res = await passkeyLogin(auth.get(options));
          assert.equal(res.status, 200, res.text);
          // The account has a passkey now, so its password login asks for it as the second factor.
          const pending = app().data(await app().passwordLogin(username, password, nextIp())) as { mfaToken: string; methods: string[] };
          assert.deepEqual(pending.methods, ['webauthn']);
          const second = await call()
            .post('/auth/mfa/webauthn/options')
            .set('X-Forwarded-For', nextIp())
            .send({ mfaToken: pending.mfaToken });
          assert.equal(second.status, 200, second.text);
          const byPassword = await call()
            .post('/auth/mfa/verify')
            .set('X-Forwarded-For', nextIp())
            .send({ mfaToken: pending.mfaToken, webauthn: auth.get(app().data(second) as Parameters<typeof auth.get>[0]) });
          assert.equal(byPassword.status, 200, byPassword.text);
          const [answer, expected] = [app().data(res) as Record<string, unknown>, app().data(byPassword) as Record<string, unknown>];
          assert.deepEqual(Object.keys(answer).sort(), Object.keys(expected).sort());
          assert.deepEqual(
            { ...answer, accessToken: '', refreshToken: '', expires: '' },
            { ...expected, accessToken: '', refreshToken: '', expires: '' },
          );
          assert.match(String(res.headers['set-cookie']), new RegExp(`^ag_device_${type}=`));
          const me = await call()
            .get(whoAmI)
            .set(bearer(answer.accessToken as string))
            .expect(200);
          assert.equal((app().data(me) as { username: string }).username, username);
        });

        it('records the use: last used is set, and the session says how the user authenticated (hwk, mfa)', async () => {
          const { auth, token, id } = await enrolled();
          const res = await passkeyLogin(auth.get(await loginOptions()));
          assert.equal(res.status, 200, res.text);
          const list = app().data(await call().get('/auth/passkeys').set(bearer(token))) as { id: string; lastUsedAt: string | null }[];
          assert.match(list.find((p) => p.id === id)?.lastUsedAt ?? '', /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
          const accessToken = (app().data(res) as { accessToken: string }).accessToken;
          const managers = (type === 'admin' ? built.admin : built.web).container.get(SessionManagers);
          const resolved = await managers.get(type).resolveToken(accessToken);
          assert.ok(resolved.ok);
          assert.deepEqual(resolved.session.record.amr, ['hwk', 'mfa']);
        });

        it('refuses a replayed answer, another origin, no user verification, and a clone whose counter fell behind', async () => {
          const { auth } = await enrolled();
          const answer = auth.get(await loginOptions());
          assert.equal((await passkeyLogin(answer)).status, 200);
          app().refused(await passkeyLogin(answer), 'passkey-invalid');
          app().refused(await passkeyLogin(auth.get(await loginOptions(), { origin: 'https://evil.example' })), 'passkey-invalid');
          app().refused(await passkeyLogin(auth.get(await loginOptions(), { uv: false })), 'passkey-invalid');
          // the original has signed with counters 1 and 2 (this login and the refused ones did not sign: the answer above did);
          // a clone of the key replaying an old counter is refused, and the original goes on
          assert.equal((await passkeyLogin(auth.get(await loginOptions()))).status, 200);
          app().refused(await passkeyLogin(auth.get(await loginOptions(), { counter: 1 })), 'passkey-invalid');
          assert.equal((await passkeyLogin(auth.get(await loginOptions()))).status, 200);
        });

        it('refuses a passkey of a disabled account as a password login would', async () => {
          const { auth, username, password } = await enrolled(1);
          const user = await (type === 'admin' ? infra.directories.admins : infra.directories.members).findByUsername(username);
          const accounts = type === 'admin' ? infra.directories.adminAccounts : infra.directories.memberAccounts;
          await accounts.setStatus(user?.id ?? '', { enabled: false, reason: 'test', until: null });
          try {
            const byPasskey = await passkeyLogin(auth.get(await loginOptions()));
            const byPassword = await app().passwordLogin(username, password, nextIp());
            assert.equal(byPasskey.status, byPassword.status, byPassword.text);
            assert.equal(byPasskey.body.code, byPassword.body.code);
          } finally {
            await accounts.setStatus(user?.id ?? '', { enabled: true });
          }
        });

        it("goes through the password login's rate limit (per client address)", async () => {
          const { auth } = await enrolled();
          const ip = nextIp();
          for (let i = 0; i < 5; i++) await app().passwordLogin('nobody', 'wrong-password', ip);
          const res = await passkeyLogin(auth.get(await loginOptions()), ip);
          app().refused(res, 'rate-limited');
        });
      });
    }
  });
}
