/**
 * TOTP enrolment over HTTP on both apps (admin: envelope, web: problem+json), on the in-memory store and on Redis:
 * POST /auth/mfa/totp/setup, POST /auth/mfa/totp/confirm, DELETE /auth/mfa/totp. Codes come from oathtool where it
 * is there (an independent implementation), else from the arithmetic test/unit/totp-algorithm.test.ts pins.
 * Sessions are made with SessionManager directly (the login is the auth module's).
 */
import assert from 'node:assert/strict';
import type { RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { TotpFactors } from '../../src/application/mfa/totp-factors';
import { SessionManagers, type SessionAuth } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import type { Reason } from '../../src/domain/errors';
import type { LoginType } from '../../src/domain/login-type';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { oathtoolAvailable, oathtoolCode } from '../support/oathtool';
import { requireRedis } from '../support/services';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { seedSqlFixture } from '../sql/fixture';
import { FIXTURE } from '../contract/user-directory.contract';

const algorithm = new OtpauthTotp();
const codeAt = (secret: string, at: number): string =>
  oathtoolAvailable() ? oathtoolCode(secret, at) : algorithm.codeAt(secret, Math.floor(at / 30_000));
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The apps under test, each with the account its session belongs to (admin user 1, web member 1: same id, apart). */
const ACCOUNTS = { admin: 'admin', web: 'alice' } as const;

for (const kind of STORE_KINDS) {
  describe(`TOTP enrolment over HTTP (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    const clock = new FakeClock(Date.UTC(2026, 2, 1, 12, 0, 10));

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.webauthn.rp-name': 'Acme' }, kind);
      infra = testInfra(config, { clock, label: `totp-${kind}` });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    const http = (type: LoginType) => request(apps[type].app.callback());
    /** A session of the app's account, as a login makes it (`auth`: required actions, authTime). */
    async function sessionOf(type: LoginType, auth: SessionAuth = {}): Promise<string> {
      const c = apps[type].container;
      const user = await c.get(type === 'admin' ? TOKENS.AdminDirectory : TOKENS.MemberDirectory).findByUsername(ACCOUNTS[type]);
      assert.ok(user);
      return (await c.get(SessionManagers).get(type).login(principalOf(user), {}, {}, undefined, auth)).token;
    }
    /** A route of the app that a restricted session may not use. */
    const fullOnly = (type: LoginType) => (type === 'admin' ? '/monitor/online' : '/user/profile');
    /** The payload of a 2xx answer in the app's format. */
    const data = (type: LoginType, res: request.Response) => (type === 'admin' ? res.body.data : res.body);
    /** Checks a refusal in the app's format. */
    function refused(type: LoginType, res: request.Response, reason: Reason): void {
      const e = ERROR_CATALOGUE[reason];
      assert.equal(res.status, e.status, `${res.status} ${res.text.slice(0, 200)}`);
      if (type === 'admin') assert.equal(res.body.code, e.code);
      else {
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        assert.equal(res.body.code, reason);
      }
    }

    for (const type of ['admin', 'web'] as const) {
      describe(`${type} app`, () => {
        let token: string;
        beforeEach(async () => {
          token = await sessionOf(type);
          await apps[type].container.get(TotpFactors).remove(type, '1');
        });

        it('each route needs a login', async () => {
          refused(type, await http(type).post('/auth/mfa/totp/setup'), 'token-missing');
          refused(type, await http(type).post('/auth/mfa/totp/confirm').send({ code: '123456' }), 'token-missing');
          refused(type, await http(type).delete('/auth/mfa/totp'), 'token-missing');
        });

        it('setup, a wrong code (401), confirm (ten recovery codes once), then 409 until removed; the factor verifies', async () => {
          refused(type, await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code: '123456' }), 'mfa-setup-missing');
          const setup = await http(type).post('/auth/mfa/totp/setup').set(bearer(token)).expect(200);
          assert.match(setup.headers['cache-control'] ?? '', /no-store/);
          const { secret, otpauthUrl, qrSvg } = data(type, setup);
          assert.match(secret, /^[A-Z2-7]{32}$/);
          assert.equal(otpauthUrl, `otpauth://totp/Acme:${ACCOUNTS[type]}?issuer=Acme&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
          assert.match(qrSvg, /^<svg [\s\S]*<\/svg>\s*$/);

          const right = codeAt(secret, clock.now());
          const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
          refused(type, await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code: wrong }), 'mfa-code-invalid');
          refused(type, await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({}), 'validation-failed');
          const confirmed = await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code: right }).expect(200);
          const { recoveryCodes } = data(type, confirmed);
          assert.equal(recoveryCodes.length, 10);
          assert.equal(new Set(recoveryCodes).size, 10);

          refused(type, await http(type).post('/auth/mfa/totp/setup').set(bearer(token)), 'mfa-already-enrolled');
          refused(type, await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code: right }), 'mfa-already-enrolled');

          // What the login's second step will call: the confirming code is spent; the next step's code is accepted once.
          const factors = apps[type].container.get(TotpFactors);
          assert.equal(await factors.verify(type, '1', right), false);
          clock.advance(30_000);
          const next = codeAt(secret, clock.now());
          assert.equal(await factors.verify(type, '1', next), true);
          assert.equal(await factors.verify(type, '1', next), false, 'replayed');
          assert.equal(await factors.useRecoveryCode(type, '1', recoveryCodes[0]), true);
          assert.equal(await factors.useRecoveryCode(type, '1', recoveryCodes[0]), false, 'used');

          await http(type).delete('/auth/mfa/totp').set(bearer(token)).expect(204);
          assert.equal(await factors.isEnrolled(type, '1'), false);
          await http(type).delete('/auth/mfa/totp').set(bearer(token)).expect(204);
          await http(type).post('/auth/mfa/totp/setup').set(bearer(token)).expect(200);
        });

        it('removing the factor needs a recent authentication: a session older than svc.step-up.max-age-seconds gets 403', async () => {
          const factors = apps[type].container.get(TotpFactors);
          const { secret } = data(type, await http(type).post('/auth/mfa/totp/setup').set(bearer(token)).expect(200));
          await http(type)
            .post('/auth/mfa/totp/confirm')
            .set(bearer(token))
            .send({ code: codeAt(secret, clock.now()) })
            .expect(200);
          const old = await sessionOf(type, { authTime: clock.now() - 301_000 });
          refused(type, await http(type).delete('/auth/mfa/totp').set(bearer(old)), 'step-up-required');
          assert.equal(await factors.isEnrolled(type, '1'), true, 'still enrolled');
          clock.advance(301_000);
          refused(type, await http(type).delete('/auth/mfa/totp').set(bearer(token)), 'step-up-required');
          await http(type)
            .delete('/auth/mfa/totp')
            .set(bearer(await sessionOf(type)))
            .expect(204);
          assert.equal(await factors.isEnrolled(type, '1'), false);
        });

        it('a session restricted to enrolling a factor reaches setup and confirm, and is a full session after confirming', async () => {
          const restricted = await sessionOf(type, { requiredActions: ['mfa-enrolment'] });
          refused(type, await http(type).get(fullOnly(type)).set(bearer(restricted)), 'mfa-enrolment-required');
          refused(type, await http(type).delete('/auth/mfa/totp').set(bearer(restricted)), 'mfa-enrolment-required');
          const { secret } = data(type, await http(type).post('/auth/mfa/totp/setup').set(bearer(restricted)).expect(200));
          const code = codeAt(secret, clock.now());
          await http(type).post('/auth/mfa/totp/confirm').set(bearer(restricted)).send({ code }).expect(200);
          await http(type).get(fullOnly(type)).set(bearer(restricted)).expect(200);
          await http(type).get(fullOnly(type)).set(bearer(token)).expect(200); // an unrestricted session was never limited
        });

        it('a setup not confirmed within 10 minutes lapses', async () => {
          const setup = await http(type).post('/auth/mfa/totp/setup').set(bearer(token)).expect(200);
          clock.advance(10 * 60_000);
          const code = codeAt(data(type, setup).secret, clock.now());
          refused(type, await http(type).post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code }), 'mfa-setup-missing');
        });
      });
    }

    it("admin user 1 and web member 1 have factors apart: one app's enrolment is not the other's", async () => {
      const [admin, web] = [await sessionOf('admin'), await sessionOf('web')];
      for (const type of ['admin', 'web'] as const) await apps[type].container.get(TotpFactors).remove(type, '1');
      const setup = await http('admin').post('/auth/mfa/totp/setup').set(bearer(admin)).expect(200);
      const code = codeAt(data('admin', setup).secret, clock.now());
      refused('web', await http('web').post('/auth/mfa/totp/confirm').set(bearer(web)).send({ code }), 'mfa-setup-missing');
      await http('admin').post('/auth/mfa/totp/confirm').set(bearer(admin)).send({ code }).expect(200);
      assert.equal(await apps.web.container.get(TotpFactors).isEnrolled('web', '1'), false);
      await http('web').post('/auth/mfa/totp/setup').set(bearer(web)).expect(200);
      refused('web', await http('web').post('/auth/mfa/totp/setup').set(bearer(admin)), 'token-invalid');
    });
  });
}

describe('TOTP over HTTP with the SQL directory: two instances share the factor, and a code is accepted once across them', function () {
  this.timeout(30_000);
  let db: ScratchDatabase;
  let infras: TestInfra[];
  let apps: Array<ReturnType<typeof buildBoth>>;
  let rootId: string;
  const clock = new FakeClock(Date.UTC(2026, 2, 1, 12, 0, 10));

  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('totphttp');
    rootId = (await seedSqlFixture(db.pool, FIXTURE)).get('root') as string;
    const ds = db.settings;
    const config = testConfig({
      'svc.directory': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
      'svc.mfa.encryption-key': 'c0ffee'.repeat(10) + 'c0ff',
    });
    infras = [testInfra(config, { clock, label: 'totp-sql-a' }), testInfra(config, { clock, label: 'totp-sql-b' })];
    apps = infras.map((i) => buildBoth(config, i));
  });
  after(async () => {
    for (const i of infras ?? []) await i.dispose();
    await db?.drop();
  });

  it('enrolled through one instance, verified by the other; the secret at rest is sealed, the recovery codes hashed', async () => {
    const [a, b] = apps as [ReturnType<typeof buildBoth>, ReturnType<typeof buildBoth>];
    const user = await a.admin.container.get(TOKENS.AdminDirectory).findByUsername('root');
    assert.ok(user);
    const token = (await a.admin.container.get(SessionManagers).get('admin').login(principalOf(user))).token;
    const setup = await request(a.admin.app.callback()).post('/auth/mfa/totp/setup').set(bearer(token)).expect(200);
    const { secret } = setup.body.data;
    const confirmed = await request(a.admin.app.callback())
      .post('/auth/mfa/totp/confirm')
      .set(bearer(token))
      .send({ code: codeAt(secret, clock.now()) })
      .expect(200);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT secret FROM mfa_totp WHERE account_type = ? AND user_id = ?', [
      'admin',
      rootId,
    ]);
    const sealed = String(rows[0]?.secret);
    assert.ok(sealed.startsWith('v1.') && !sealed.includes(secret), 'sealed, not the plaintext');
    const [hashes] = await db.pool.query<RowDataPacket[]>(
      "SELECT code_hash FROM mfa_recovery_code WHERE account_type = 'admin' AND user_id = ?",
      [rootId],
    );
    assert.equal(hashes.length, 10);
    for (const c of confirmed.body.data.recoveryCodes as string[])
      assert.ok(!hashes.some((h) => String(h.code_hash).includes(c.replace(/-/g, ''))), 'hashed');

    clock.advance(30_000);
    const code = codeAt(secret, clock.now());
    const [fa, fb] = [a.admin.container.get(TotpFactors), b.admin.container.get(TotpFactors)];
    assert.equal(await fb.isEnrolled('admin', rootId), true, 'the other instance sees the factor');
    const both = await Promise.all([fa.verify('admin', rootId, code), fb.verify('admin', rootId, code)]);
    assert.deepEqual(both.sort(), [false, true], 'one code, two instances at once: accepted once');
    assert.equal(await fa.verify('admin', rootId, code), false);
    const recovery = confirmed.body.data.recoveryCodes[0] as string;
    const spent = await Promise.all([fa.useRecoveryCode('admin', rootId, recovery), fb.useRecoveryCode('admin', rootId, recovery)]);
    assert.deepEqual(spent.sort(), [false, true]);
  });
});
