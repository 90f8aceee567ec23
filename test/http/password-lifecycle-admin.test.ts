/**
 * The admin side of the account lifecycle over HTTP, on each store: changing one's own password
 * (RSA-encrypted, other sessions and refresh tokens end, the caller stays), an administrator's
 * reset (generated or given, restricted next login until the change), unlock, enable, the state
 * an administrator reads.
 */
import assert from 'node:assert/strict';
import type request from 'supertest';
import { AccountLock } from '../../src/application/auth/account-lock';
import { TOKENS } from '../../src/application/tokens';
import type { BuiltApp } from '../../src/main/operations';
import { buildAdminApp } from '../../src/main/admin';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, agent, bearer, encryptPassword } from '../support/flows';
import { requireRedis } from '../support/services';

const NEW_PASSWORD = 'correct horse battery 42';
let ipSeq = 0;
const ip = () => `10.77.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

for (const kind of STORE_KINDS) {
  describe(`password change, reset and account state on the admin app (${kind} store)`, function () {
    let infra: TestInfra;
    let app: BuiltApp;
    let pem: string;
    let login: (u: string, p: string, ip: string) => Promise<request.Response>;

    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.login.max-failures': 3, 'svc.trusted-proxies': '127.0.0.1,::1' }, kind);
      infra = testInfra(config, { label: `pwadmin${kind}` });
      app = buildAdminApp(config, infra);
      login = adminLogin(app.app);
      pem = (await agent(app.app).get('/auth/getConfig')).body.data.publicKey;
    });
    afterEach(async () => infra?.dispose());

    const http = () => agent(app.app);
    const enc = (p: string) => encryptPassword(pem, p);
    const session = async (u: string, p: string) => {
      const r = await login(u, p, ip());
      assert.equal(r.status, 200, r.text);
      return r.body.data as { accessToken: string; refreshToken: string; passwordChangeRequired: boolean };
    };
    const change = (token: string, current: string, next: string, extra: object = {}) =>
      http()
        .post('/auth/password')
        .set(bearer(token))
        .set('X-Forwarded-For', ip())
        .send({ currentPassword: enc(current), newPassword: enc(next), ...extra });
    const refresh = (rt: string) => http().post('/auth/refresh-token').send({ refreshToken: rt });

    it('a change ends the other sessions and refresh tokens, keeps the caller, and the old password stops working', async () => {
      const [a, b] = [await session('viewer', 'viewer123'), await session('viewer', 'viewer123')];
      const r = await change(a.accessToken, 'viewer123', NEW_PASSWORD).expect(200);
      assert.equal(r.body.code, 0);
      assert.equal(r.body.data.passwordChanged, true);
      assert.equal(r.body.data.sessionsEnded, 1);
      assert.match(String(r.headers['set-cookie']), /ag_device_admin=/);
      await http().get('/auth/me').set(bearer(a.accessToken)).expect(200);
      assert.equal((await http().get('/auth/me').set(bearer(b.accessToken)).expect(401)).body.code, 40105);
      assert.equal((await refresh(b.refreshToken).expect(401)).body.code, 40111);
      assert.equal((await refresh(a.refreshToken).expect(401)).body.code, 40111, "the caller's old refresh token is cut too");
      const next = await refresh(r.body.data.refreshToken).expect(200);
      assert.ok(next.body.data.accessToken);
      assert.equal((await login('viewer', 'viewer123', ip())).body.code, 40110);
      await session('viewer', NEW_PASSWORD);
    });

    it('revokeOtherSessions: false keeps the other sessions and refresh tokens', async () => {
      const [a, b] = [await session('viewer', 'viewer123'), await session('viewer', 'viewer123')];
      const r = await change(a.accessToken, 'viewer123', NEW_PASSWORD, { revokeOtherSessions: false }).expect(200);
      assert.deepEqual(r.body.data, { passwordChanged: true, sessionsEnded: 0, refreshToken: null });
      await http().get('/auth/me').set(bearer(b.accessToken)).expect(200);
      await refresh(b.refreshToken).expect(200);
    });

    it('a wrong current password is 401 current-password-wrong and spends the failure budget like a login', async () => {
      const a = await session('viewer', 'viewer123');
      for (let i = 0; i < 3; i++) assert.equal((await change(a.accessToken, `wrong-${i}-pass`, NEW_PASSWORD).expect(401)).body.code, 40113);
      // The budget (3) is spent: a client without a device cookie must now solve a captcha, at login too.
      assert.equal((await change(a.accessToken, 'viewer123', NEW_PASSWORD).expect(428)).body.code, 42800);
      assert.equal((await login('viewer', 'viewer123', ip())).status, 428);
    });

    it('a weak new password is 400 password-policy with the rules broken, and nothing changes', async () => {
      const a = await session('viewer', 'viewer123');
      const r = await change(a.accessToken, 'viewer123', 'password').expect(400);
      assert.equal(r.body.code, 40040);
      assert.ok(Array.isArray(r.body.errors) && r.body.errors.length >= 1, r.text);
      assert.equal(r.body.errors[0].pointer, '/newPassword');
      assert.equal(
        (await change(a.accessToken, 'viewer123', 'viewer123').expect(400)).body.code,
        40040,
        'the current one is in the history',
      );
      await session('viewer', 'viewer123');
    });

    it('an administrator reset ends every login and restricts the next one until the password is changed', async () => {
      const root = await session('admin', 'admin123');
      const v = await session('viewer', 'viewer123');
      const r = await http().post('/system/user/2/password').set(bearer(root.accessToken)).send({ generate: true }).expect(200);
      assert.equal(r.headers['cache-control'], 'no-store');
      const temp = r.body.data.temporaryPassword as string;
      assert.match(temp, /^[A-Za-z2-9]{16}$/);
      assert.deepEqual(
        { ...r.body.data, temporaryPassword: 'x' },
        {
          userId: '2',
          username: 'viewer',
          mustChangePassword: true,
          sessionsEnded: 1,
          temporaryPassword: 'x',
        },
      );
      assert.equal((await http().get('/auth/me').set(bearer(v.accessToken)).expect(401)).body.code, 40105);
      assert.equal((await refresh(v.refreshToken).expect(401)).body.code, 40111);

      const restricted = await session('viewer', temp);
      assert.equal(restricted.passwordChangeRequired, true);
      const denied = await http().get('/system/user/list').set(bearer(restricted.accessToken)).expect(403);
      assert.equal(denied.body.code, 40303);
      await http().get('/auth/me').set(bearer(restricted.accessToken)).expect(200);
      // A refresh does not lift the restriction.
      const again = (await refresh(restricted.refreshToken).expect(200)).body.data;
      await http().get('/system/user/list').set(bearer(again.accessToken)).expect(403);
      const changed = await change(again.accessToken, temp, NEW_PASSWORD).expect(200);
      await http().get('/system/user/list').set(bearer(again.accessToken)).expect(200);
      const state = await http().get('/system/user/2').set(bearer(root.accessToken)).expect(200);
      assert.equal(state.body.data.mustChangePassword, false);
      assert.ok(changed.body.data.refreshToken);
      assert.equal((await session('viewer', NEW_PASSWORD)).passwordChangeRequired, false);
    });

    it('a reset with a given password checks the policy; without permission or for oneself it is refused', async () => {
      const root = await session('admin', 'admin123');
      const v = await session('viewer', 'viewer123');
      const reset = (token: string, id: string, body: object) => http().post(`/system/user/${id}/password`).set(bearer(token)).send(body);
      assert.equal((await reset(root.accessToken, '2', { newPassword: enc('password') }).expect(400)).body.code, 40040);
      assert.equal((await reset(root.accessToken, '2', {}).expect(400)).body.code, 40000);
      assert.equal((await reset(root.accessToken, '2', { generate: true, newPassword: enc(NEW_PASSWORD) }).expect(400)).body.code, 40000);
      assert.equal((await reset(root.accessToken, '1', { generate: true }).expect(403)).body.code, 40302);
      assert.equal((await reset(v.accessToken, '1', { generate: true }).expect(403)).body.code, 40300);
      assert.equal((await reset(root.accessToken, '99', { generate: true }).expect(404)).body.code, 40401);
      const ok = await reset(root.accessToken, '2', { newPassword: enc(NEW_PASSWORD) }).expect(200);
      assert.equal(ok.body.data.temporaryPassword, null);
      assert.equal((await session('viewer', NEW_PASSWORD)).passwordChangeRequired, true);
    });

    it('unlock lets a locked account in at once; the state shows the lock until then', async () => {
      const root = await session('admin', 'admin123');
      for (let i = 0; i < 3; i++) await login('viewer', `bad-guess-${i}`, ip());
      assert.equal((await login('viewer', 'viewer123', ip())).status, 428);
      const locked = await http().get('/system/user/2').set(bearer(root.accessToken)).expect(200);
      assert.ok(locked.body.data.lockedUntil !== null && Date.parse(locked.body.data.lockedUntil) > Date.now());
      const r = await http().post('/system/user/2/unlock').set(bearer(root.accessToken)).expect(200);
      assert.deepEqual(r.body.data, { userId: '2', username: 'viewer', unlocked: true });
      await session('viewer', 'viewer123');
      assert.equal((await http().get('/system/user/2').set(bearer(root.accessToken)).expect(200)).body.data.lockedUntil, null);
    });

    it("unlock clears the budgets of the account's device cookies too", async () => {
      const lock = app.container.get(AccountLock);
      const kv = app.container.get(TOKENS.KeyValueStore);
      for (let i = 0; i < 3; i++) await lock.fail(await lock.begin('admin', 'viewer', { deviceId: 'device-1', captchaSolved: false }));
      assert.notEqual(await kv.get('devicefail:admin:device-1'), null);
      await lock.unlock('admin', 'VIEWER');
      assert.equal(await kv.get('devicefail:admin:device-1'), null);
      assert.equal(await lock.lockedUntil('admin', 'viewer'), null);
    });

    it('a disabled account is enabled again and logs in', async () => {
      const root = await session('admin', 'admin123');
      await http().post('/system/user/2/disable').set(bearer(root.accessToken)).expect(200);
      assert.equal((await login('viewer', 'viewer123', ip())).body.code, 40114);
      const state = await http().get('/system/user/2').set(bearer(root.accessToken)).expect(200);
      assert.equal(state.body.data.enabled, false);
      assert.equal(state.body.data.active, false);
      const r = await http().post('/system/user/2/enable').set(bearer(root.accessToken)).expect(200);
      assert.equal(r.body.data.enabled, true);
      await session('viewer', 'viewer123');
    });
  });
}

describe('a timed ban on the admin app lifts itself (fake clock)', () => {
  it('refuses with account-disabled until `until`, then admits the login with no one calling', async () => {
    const clock = new FakeClock(Date.now());
    const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1' });
    const infra = testInfra(config, { label: 'pwban', clock });
    try {
      const app = buildAdminApp(config, infra);
      const login = adminLogin(app.app);
      const root = (await login('admin', 'admin123', '10.79.0.1')).body.data.accessToken as string;
      const viewer = (await login('viewer', 'viewer123', '10.79.0.2')).body.data.accessToken as string;
      const until = new Date(clock.now() + 3_600_000).toISOString();
      const disable = (body: object) => agent(app.app).post('/system/user/2/disable').set(bearer(root)).send(body);
      assert.equal((await disable({ until: new Date(clock.now() - 1000).toISOString() }).expect(400)).body.code, 40000);
      assert.equal((await disable({ until: 'tomorrow' }).expect(400)).body.code, 40000);
      const r = await disable({ reason: 'on leave', until }).expect(200);
      assert.deepEqual(r.body.data, {
        userId: '2',
        username: 'viewer',
        enabled: false,
        disabledReason: 'on leave',
        disabledUntil: until,
        sessionsEnded: 1,
      });
      await agent(app.app).get('/auth/me').set(bearer(viewer)).expect(401);
      const refused = await login('viewer', 'viewer123', '10.79.0.3');
      assert.equal(refused.body.code, 40114);
      assert.doesNotMatch(refused.body.message, /on leave/, 'the reason is for administrators');
      const state = (await agent(app.app).get('/system/user/2').set(bearer(root)).expect(200)).body.data;
      assert.equal(state.disabledReason, 'on leave');
      assert.equal(state.disabledUntil, until);
      clock.advance(3_600_000);
      assert.equal((await login('viewer', 'viewer123', '10.79.0.4')).status, 200);
      assert.equal((await agent(app.app).get('/system/user/2').set(bearer(root)).expect(200)).body.data.active, true);
    } finally {
      await infra.dispose();
    }
  });
});
