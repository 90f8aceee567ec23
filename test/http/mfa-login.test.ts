/**
 * A login in two steps, step-up and required roles over HTTP, on each store: TOTP codes are computed
 * independently (oathtool when installed, else the pinned arithmetic) at the fake clock's time.
 */
import assert from 'node:assert/strict';
import type request from 'supertest';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { SecondFactors } from '../../src/application/mfa/second-factors';
import { formatDateTime } from '../../src/application/shared/date-time';
import type { BuiltApp } from '../../src/main/operations';
import { buildAdminApp } from '../../src/main/admin';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, agent, bearer, encryptPassword } from '../support/flows';
import { oathtoolAvailable, oathtoolCode } from '../support/oathtool';
import { requireRedis } from '../support/services';

const algorithm = new OtpauthTotp();
const codeAt = (secret: string, at: number) =>
  oathtoolAvailable() ? oathtoolCode(secret, at) : algorithm.codeAt(secret, Math.floor(at / 30_000));
let ipSeq = 0;
const ip = () => `10.81.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

for (const kind of STORE_KINDS) {
  describe(`a login with a second factor, step-up and required roles (admin app, ${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let app: BuiltApp;
    let clock: FakeClock;
    let login: (u: string, p: string, ip: string) => Promise<request.Response>;

    const build = async (ctx: Mocha.Context, overrides: Record<string, unknown> = {}) => {
      if (kind === 'redis') await requireRedis(ctx);
      clock = new FakeClock(Date.UTC(2026, 10, 24, 12, 0, 0));
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 3, ...overrides }, kind);
      infra = testInfra(config, { label: `mfa${kind}`, clock });
      app = buildAdminApp(config, infra);
      login = adminLogin(app.app);
    };
    afterEach(async () => infra?.dispose());
    const http = () => agent(app.app);
    const session = async (u: string, p: string) => (await login(u, p, ip())).body.data;
    /** Enrols TOTP for the session's user; returns the secret and the recovery codes. */
    const enrol = async (token: string) => {
      const setup = await http().post('/auth/mfa/totp/setup').set(bearer(token)).expect(200);
      const secret = setup.body.data.secret as string;
      const confirm = await http()
        .post('/auth/mfa/totp/confirm')
        .set(bearer(token))
        .send({ code: codeAt(secret, clock.now()) })
        .expect(200);
      return { secret, recoveryCodes: confirm.body.data.recoveryCodes as string[] };
    };
    const verify = (body: object) => http().post('/auth/mfa/verify').set('X-Forwarded-For', ip()).send(body);

    it('an enrolled account logs in in two steps; wrong codes spend the budget; the mfaToken is single-use', async function () {
      await build(this);
      const first = await session('viewer', 'viewer123');
      const { secret, recoveryCodes } = await enrol(first.accessToken);
      clock.advance(30_000);
      const pending = (await login('viewer', 'viewer123', ip())).body.data;
      assert.equal(pending.mfaRequired, true);
      assert.deepEqual(pending.methods, ['totp', 'recovery']);
      assert.equal(pending.accessToken, undefined, 'no session before the second step');
      assert.equal((await verify({ mfaToken: pending.mfaToken, code: '000000' }).expect(401)).body.code, 40116);
      const ok = await verify({ mfaToken: pending.mfaToken, code: codeAt(secret, clock.now()) }).expect(200);
      assert.ok(ok.body.data.accessToken);
      assert.deepEqual(ok.body.data.permissions, ['system:user:list', 'monitor:online:list']);
      assert.match(String(ok.headers['set-cookie']), /ag_device_admin=/);
      await http().get('/auth/me').set(bearer(ok.body.data.accessToken)).expect(200);
      assert.equal((await verify({ mfaToken: pending.mfaToken, code: codeAt(secret, clock.now()) }).expect(401)).body.code, 40115);
      // the second steps join the audit trail, failures with their reason
      const root = await session('admin', 'admin123');
      const events = async () =>
        (await http().get('/monitor/login-logs').set(bearer(root.accessToken)).expect(200)).body.data.list as {
          type: string;
          reason?: string;
          outcome: string;
        }[];
      let seen: { type: string; reason?: string; outcome: string }[] = [];
      for (let i = 0; i < 50 && !seen.some((e) => e.type === 'mfa-verified' && e.reason === 'mfa-code-invalid'); i++) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await events();
      }
      assert.ok(
        seen.some((e) => e.type === 'mfa-verified' && e.reason === 'mfa-code-invalid'),
        JSON.stringify(seen.slice(0, 5)),
      );
      assert.ok(seen.some((e) => e.type === 'mfa-verified' && e.outcome === 'success'));

      // a recovery code works once
      const again = (await login('viewer', 'viewer123', ip())).body.data;
      await verify({ mfaToken: again.mfaToken, recoveryCode: recoveryCodes[0] }).expect(200);
      const third = (await login('viewer', 'viewer123', ip())).body.data;
      assert.equal((await verify({ mfaToken: third.mfaToken, recoveryCode: recoveryCodes[0] }).expect(401)).body.code, 40116);

      // two more wrong codes spend the budget of 3: a client without a device cookie now needs a captcha
      // successes cleared the budget: three wrong answers in a row (the reused recovery code was one) spend it
      await verify({ mfaToken: third.mfaToken, code: '111111' }).expect(401);
      await verify({ mfaToken: third.mfaToken, code: '222222' }).expect(401);
      assert.equal((await verify({ mfaToken: third.mfaToken, code: codeAt(secret, clock.now()) }).expect(428)).body.code, 42800);
    });

    it('the second step makes the session the first step asked for: its deviceType and rememberMe', async function () {
      await build(this, { 'svc.time-zone': 'UTC' });
      const { secret } = await enrol((await session('viewer', 'viewer123')).accessToken);
      clock.advance(30_000);
      const key = (await http().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      const pending = (
        await http()
          .post('/auth/login')
          .set('X-Forwarded-For', ip())
          .send({ username: 'viewer', password: encryptPassword(key, 'viewer123'), deviceType: 'APP', rememberMe: false })
          .expect(200)
      ).body.data;
      assert.equal(pending.mfaRequired, true);
      const done = (await verify({ mfaToken: pending.mfaToken, code: codeAt(secret, clock.now()) }).expect(200)).body.data;
      assert.equal(done.refreshToken, undefined, 'no refresh token without remember-me');
      const own = (await http().get('/auth/sessions').set(bearer(done.accessToken)).expect(200)).body.data as Array<{
        deviceType: string;
        current: boolean;
        expires: string;
      }>;
      const mine = own.find((s) => s.current);
      assert.equal(mine?.deviceType, 'APP');
      assert.equal(mine?.expires, formatDateTime(clock.now() + 86_400_000, 'UTC'));
    });

    it('an mfaToken expires (svc.mfa.challenge-ttl-seconds) and belongs to its app', async function () {
      await build(this);
      const { secret } = await enrol((await session('viewer', 'viewer123')).accessToken);
      clock.advance(30_000);
      const pending = (await login('viewer', 'viewer123', ip())).body.data;
      clock.advance(301_000);
      assert.equal((await verify({ mfaToken: pending.mfaToken, code: codeAt(secret, clock.now()) }).expect(401)).body.code, 40115);
      assert.equal((await verify({ mfaToken: 'x', code: '123456' }).expect(401)).body.code, 40115);
      assert.equal((await verify({ mfaToken: pending.mfaToken }).expect(400)).body.code, 40000);
    });

    it('step-up: a sensitive route answers 403 step-up-required on an old session, 2xx after POST /auth/step-up', async function () {
      await build(this);
      const root = await session('admin', 'admin123');
      clock.advance(301_000);
      const reset = () => http().post('/system/user/2/password').set(bearer(root.accessToken)).send({ generate: true });
      assert.equal((await reset().expect(403)).body.code, 40305);
      assert.equal((await http().post('/system/user/2/disable').set(bearer(root.accessToken)).send({}).expect(403)).body.code, 40305);
      const wrong = await http().post('/auth/step-up').set(bearer(root.accessToken)).send({ password: 'bm90LWEtY2lwaGVydGV4dA==' });
      assert.equal(wrong.status, 401);
      const pem = (await http().get('/auth/getConfig')).body.data.publicKey as string;
      const up = await http()
        .post('/auth/step-up')
        .set(bearer(root.accessToken))
        .send({ password: encryptPassword(pem, 'admin123') })
        .expect(200);
      assert.deepEqual(up.body.data.amr, ['pwd']);
      await reset().expect(200);
    });

    it('passkey options for a second step and for step-up: only for an account with a passkey and a live mfaToken', async function () {
      await build(this);
      const first = await session('viewer', 'viewer123');
      await enrol(first.accessToken);
      clock.advance(30_000);
      const pending = (await login('viewer', 'viewer123', ip())).body.data;
      const options = (body: object) => http().post('/auth/mfa/webauthn/options').set('X-Forwarded-For', ip()).send(body);
      assert.equal((await options({ mfaToken: pending.mfaToken }).expect(401)).body.code, 40117, 'a TOTP-only account has no passkey');
      assert.equal((await options({ mfaToken: 'no-such-token' }).expect(401)).body.code, 40115);
      const up = await http().post('/auth/step-up/options').set(bearer(first.accessToken)).expect(401);
      assert.equal(up.body.code, 40117);
      await http().post('/auth/step-up/options').expect(401);
    });

    it('svc.mfa.required-roles: a holder without a factor gets a session restricted to enrolment, full once enrolled', async function () {
      await build(this, { 'svc.mfa.required-roles': 'admin' });
      const root = await session('admin', 'admin123');
      assert.deepEqual(root.requiredActions, ['mfa-enrolment']);
      assert.equal((await http().get('/system/user/list').set(bearer(root.accessToken)).expect(403)).body.code, 40306);
      await http().get('/auth/me').set(bearer(root.accessToken)).expect(200);
      // a refresh keeps the restriction
      const refreshed = (await http().post('/auth/refresh-token').send({ refreshToken: root.refreshToken }).expect(200)).body.data;
      await http().get('/system/user/list').set(bearer(refreshed.accessToken)).expect(403);
      const { secret } = await enrol(refreshed.accessToken);
      await http().get('/system/user/list').set(bearer(refreshed.accessToken)).expect(200);
      // the viewer holds no required role
      assert.deepEqual((await session('viewer', 'viewer123')).requiredActions, []);
      // a login in two steps reads the account's factors once (the first step); the second step's factor is one
      const factors = app.container.get(SecondFactors);
      const methodsOf = factors.methodsOf.bind(factors);
      let reads = 0;
      factors.methodsOf = (...args) => (reads++, methodsOf(...args));
      clock.advance(30_000);
      const pending = (await login('admin', 'admin123', ip())).body.data;
      const full = (await verify({ mfaToken: pending.mfaToken, code: codeAt(secret, clock.now()) }).expect(200)).body.data;
      assert.deepEqual(full.requiredActions, []);
      assert.equal(reads, 1);
    });
  });
}
