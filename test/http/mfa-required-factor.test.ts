/**
 * svc.mfa.required-roles over HTTP, on each store: a holder of a required role cannot remove their last second factor
 * (409 last-required-factor, in the admin envelope; nothing removed, the session stays full since the factor does);
 * with a second one enrolled either goes; a holder of no such role removes their only one.
 */
import assert from 'node:assert/strict';
import type request from 'supertest';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { buildAdminApp } from '../../src/main/admin';
import type { BuiltApp } from '../../src/main/operations';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, agent, bearer } from '../support/flows';
import { requireRedis } from '../support/services';
import { SoftAuthenticator } from '../support/soft-authenticator';

const algorithm = new OtpauthTotp();
let ipSeq = 0;
const ip = () => `10.82.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
const LAST = ERROR_CATALOGUE['last-required-factor'];

for (const kind of STORE_KINDS) {
  describe(`removing the last factor a required role needs (admin app, ${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let app: BuiltApp;
    let clock: FakeClock;
    let login: (u: string, p: string, ip: string) => Promise<request.Response>;

    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
      clock = new FakeClock(Date.UTC(2026, 10, 24, 12, 0, 0));
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.mfa.required-roles': 'admin' }, kind);
      infra = testInfra(config, { label: `reqfactor${kind}`, clock });
      app = buildAdminApp(config, infra);
      login = adminLogin(app.app);
    });
    afterEach(async () => infra?.dispose());
    const http = () => agent(app.app);
    const session = async (u: string, p: string): Promise<string> => (await login(u, p, ip())).body.data.accessToken as string;
    const enrolTotp = async (token: string) => {
      const secret = (await http().post('/auth/mfa/totp/setup').set(bearer(token)).expect(200)).body.data.secret as string;
      const code = algorithm.codeAt(secret, Math.floor(clock.now() / 30_000));
      await http().post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code }).expect(200);
    };
    const registerPasskey = async (token: string): Promise<string> => {
      const auth = new SoftAuthenticator('http://localhost:8080');
      const options = (await http().post('/auth/passkeys/options').set(bearer(token)).expect(200)).body.data;
      return (
        await http()
          .post('/auth/passkeys')
          .set(bearer(token))
          .send({ response: auth.create(options) })
          .expect(201)
      ).body.data.id as string;
    };
    const refusedLast = (res: request.Response) => {
      assert.equal(res.status, LAST.status, res.text);
      assert.equal(res.body.code, LAST.code, res.text);
      assert.match(res.body.msg ?? res.body.message, /role \(admin\) requires one/);
    };

    it('the only TOTP factor, then the only passkey, are refused; with both, either goes first', async () => {
      const token = await session('admin', 'admin123');
      await enrolTotp(token);
      refusedLast(await http().delete('/auth/mfa/totp').set(bearer(token)));
      await http().get('/system/user/list').set(bearer(token)).expect(200);

      const passkey = await registerPasskey(token);
      await http().delete('/auth/mfa/totp').set(bearer(token)).expect(204);
      refusedLast(await http().delete(`/auth/passkeys/${passkey}`).set(bearer(token)));
      assert.equal((await http().get('/auth/passkeys').set(bearer(token)).expect(200)).body.data.length, 1, 'kept');

      await enrolTotp(token);
      await http().delete(`/auth/passkeys/${passkey}`).set(bearer(token)).expect(204);
      refusedLast(await http().delete('/auth/mfa/totp').set(bearer(token)));
      await http().get('/system/user/list').set(bearer(token)).expect(200);
    });

    it('a holder of no required role removes their only factor; removing none is still 204', async () => {
      const token = await session('viewer', 'viewer123');
      await http().delete('/auth/mfa/totp').set(bearer(token)).expect(204);
      await enrolTotp(token);
      await http().delete('/auth/mfa/totp').set(bearer(token)).expect(204);
    });
  });
}
