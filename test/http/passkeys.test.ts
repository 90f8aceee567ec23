/**
 * The passkey routes of both apps on both stores, with answers a software authenticator makes:
 * registering (options, then the attestation), listing and removing one's passkeys, each in the
 * app's format; a challenge is answered once, another origin's answer is refused, and nobody
 * reaches another user's passkeys.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import request from 'supertest';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { passkeyApps, passwordToken, type PasskeyApp } from '../support/passkey-apps';
import { requireRedis } from '../support/services';
import { SoftAuthenticator } from '../support/soft-authenticator';

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;
let ipCounter = 0;
const nextIp = () => `10.20.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

for (const kind of STORE_KINDS) {
  describe(`passkey routes over HTTP (${kind} store)`, function () {
    this.timeout(30000);
    let infra: TestInfra;
    let apps: PasskeyApp[];
    const clock = new FakeClock(Date.now());
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1' }, kind);
      infra = testInfra(config, { label: 'passkeys', clock });
      const built = buildBoth(config, infra);
      await request(built.web.app.callback())
        .post('/auth/register')
        .set('X-Forwarded-For', nextIp())
        .send({ username: 'bob.smith', password: 'bob-pass-123' })
        .expect(201);
      apps = passkeyApps(built, ['bob.smith', 'bob-pass-123']);
    });
    after(async () => infra?.dispose());

    for (const type of ['admin', 'web'] as const) {
      describe(`${type} app`, () => {
        const app = () => apps.find((a) => a.type === type) as PasskeyApp;
        const call = () => request(app().app.callback());
        const login = (i = 0) => passwordToken(app(), ...(app().users[i] as [string, string]), nextIp());

        async function options(token: string) {
          const res = await call().post('/auth/passkeys/options').set(bearer(token)).expect(200);
          return app().data(res) as { challenge: string; rp: { id: string }; user: { id: string }; excludeCredentials: { id: string }[] };
        }

        it('registers a passkey, lists it, excludes it from the next options, and removes it', async () => {
          const token = await login();
          const auth = new SoftAuthenticator(app().origin);
          const opts = await options(token);
          assert.equal(opts.rp.id, 'localhost');
          assert.deepEqual(opts.excludeCredentials, []);
          const reg = await call()
            .post('/auth/passkeys')
            .set(bearer(token))
            .send({ response: auth.create(opts), name: 'Work laptop' })
            .expect(201);
          const created = app().data(reg) as { id: string; name: string; createdAt: string; lastUsedAt: string | null };
          assert.equal(created.name, 'Work laptop');
          assert.match(created.createdAt, DATE);
          assert.equal(created.lastUsedAt, null);
          assert.ok(auth.credentials.has(created.id));

          const list = app().data(await call().get('/auth/passkeys').set(bearer(token)).expect(200));
          assert.deepEqual(list, [created]);
          assert.deepEqual(
            (await options(token)).excludeCredentials.map((c) => c.id),
            [created.id],
          );

          await call().delete(`/auth/passkeys/${created.id}`).set(bearer(token)).expect(204);
          app().refused(await call().delete(`/auth/passkeys/${created.id}`).set(bearer(token)), 'not-found');
          assert.deepEqual(app().data(await call().get('/auth/passkeys').set(bearer(token)).expect(200)), []);
        });

        it('answers a challenge once; an answer from another origin or over no challenge of the caller is refused', async () => {
          const token = await login();
          const auth = new SoftAuthenticator(app().origin);
          const response = auth.create(await options(token));
          await call().post('/auth/passkeys').set(bearer(token)).send({ response }).expect(201);
          app().refused(await call().post('/auth/passkeys').set(bearer(token)).send({ response }), 'passkey-invalid');

          const evil = auth.create(await options(token), { origin: 'https://evil.example' });
          app().refused(await call().post('/auth/passkeys').set(bearer(token)).send({ response: evil }), 'passkey-invalid');

          const other = await login(1);
          const forOther = auth.create(await options(other));
          app().refused(await call().post('/auth/passkeys').set(bearer(token)).send({ response: forOther }), 'passkey-invalid');
          const names = (app().data(await call().get('/auth/passkeys').set(bearer(token))) as { name: string }[]).map((p) => p.name);
          assert.deepEqual(names, ['Passkey']);
        });

        it("keeps each user's passkeys apart: another user's id is not found, and stays", async () => {
          const [mine, theirs] = [await login(), await login(1)];
          const auth = new SoftAuthenticator(app().origin);
          const reg = await call()
            .post('/auth/passkeys')
            .set(bearer(theirs))
            .send({ response: auth.create(await options(theirs)) })
            .expect(201);
          const id = (app().data(reg) as { id: string }).id;
          app().refused(await call().delete(`/auth/passkeys/${id}`).set(bearer(mine)), 'not-found');
          const listed = app().data(await call().get('/auth/passkeys').set(bearer(theirs))) as { id: string }[];
          assert.ok(listed.some((p) => p.id === id));
          assert.ok(!(app().data(await call().get('/auth/passkeys').set(bearer(mine))) as { id: string }[]).some((p) => p.id === id));
        });

        it('removing a passkey is sensitive: a session whose login is older than svc.step-up.max-age-seconds gets 403', async () => {
          const old = await login();
          const auth = new SoftAuthenticator(app().origin);
          const reg = await call()
            .post('/auth/passkeys')
            .set(bearer(old))
            .send({ response: auth.create(await options(old)) })
            .expect(201);
          const id = (app().data(reg) as { id: string }).id;
          clock.advance(301_000);
          app().refused(await call().delete(`/auth/passkeys/${id}`).set(bearer(old)), 'step-up-required');
          assert.equal((app().data(await call().get('/auth/passkeys').set(bearer(old)).expect(200)) as unknown[]).length > 0, true);
          // a fresh login proves the user again
          await call()
            .delete(`/auth/passkeys/${id}`)
            .set(bearer(await login()))
            .expect(204);
        });

        it('needs a login, and a body in the WebAuthn JSON form', async () => {
          for (const req of [
            call().post('/auth/passkeys/options'),
            call().post('/auth/passkeys').send({}),
            call().get('/auth/passkeys'),
            call().delete('/auth/passkeys/AAAA'),
          ])
            app().refused(await req, 'token-missing');
          const token = await login();
          for (const body of [
            {},
            { response: { id: 'x' } },
            { response: new SoftAuthenticator(app().origin).create(await options(token)), extra: 1 },
          ])
            app().refused(await call().post('/auth/passkeys').set(bearer(token)).send(body), 'validation-failed');
        });
      });
    }
  });
}
