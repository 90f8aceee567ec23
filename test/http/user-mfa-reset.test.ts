/**
 * `DELETE /system/user/{id}/mfa` over HTTP, on each store (file directory with a help-desk role): an administrator
 * removes a user's TOTP factor, recovery codes and passkeys and ends every login of the user; the next password
 * login needs no second step (restricted to enrolment where a role requires a factor). Its permission, the delegation
 * rules of a password reset, the step-up guard, and the operation event (mfa-reset).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type request from 'supertest';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { TOKENS } from '../../src/application/tokens';
import type { Reason } from '../../src/domain/errors';
import { buildAdminApp } from '../../src/main/admin';
import type { BuiltApp } from '../../src/main/operations';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, agent, bearer } from '../support/flows';
import { requireRedis } from '../support/services';
import { SoftAuthenticator } from '../support/soft-authenticator';

const algorithm = new OtpauthTotp();
let ipSeq = 0;
const ip = () => `10.83.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

/** config/users.yml plus `helpdesk` (password viewer123): it may reset factors of whoever it covers (the viewer). */
function usersFile(): string {
  const packaged = readFileSync(path.join(__dirname, '../../config/users.yml'), 'utf8');
  const viewerHash = /username: viewer\n\s+nickname: Viewer\n\s+password: (\S+)/.exec(packaged)?.[1];
  assert.ok(viewerHash);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'agmfa-')), 'users.yml');
  const text = packaged
    .replace('roles:\n', "roles:\n  helpdesk: ['system:user:resetMfa', 'system:user:list', 'monitor:online:list']\n")
    .concat(`  - id: 3\n    username: helpdesk\n    nickname: Help desk\n    password: ${viewerHash}\n    roles: [helpdesk]\n`);
  writeFileSync(file, text);
  // The roles of the packaged users file name their menus in the menus.yml beside it.
  copyFileSync(path.join(__dirname, '../../config/menus.yml'), path.join(path.dirname(file), 'menus.yml'));
  return file;
}

for (const kind of STORE_KINDS) {
  describe(`an administrator resets a user's second factors (admin app, ${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let app: BuiltApp;
    let clock: FakeClock;
    let login: (u: string, p: string, ip: string) => Promise<request.Response>;

    const build = async (ctx: Mocha.Context, overrides: Record<string, unknown> = {}) => {
      if (kind === 'redis') await requireRedis(ctx);
      clock = new FakeClock(Date.UTC(2026, 10, 24, 12, 0, 0));
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.users-file': usersFile(), ...overrides }, kind);
      infra = testInfra(config, { label: `mfareset${kind}`, clock });
      app = buildAdminApp(config, infra);
      login = adminLogin(app.app);
    };
    afterEach(async () => infra?.dispose());
    const http = () => agent(app.app);
    const signIn = async (u: string, p: string) => (await login(u, p, ip())).body.data as Record<string, unknown>;
    const session = async (u: string, p: string) => (await signIn(u, p)).accessToken as string;
    const reset = (token: string, id: string) => http().delete(`/system/user/${id}/mfa`).set(bearer(token));
    const refused = (res: request.Response, reason: Reason) => {
      const e = ERROR_CATALOGUE[reason];
      assert.deepEqual([res.status, res.body.code], [e.status, e.code], res.text);
    };
    /** The viewer with a TOTP factor (and its recovery codes) and a passkey; its session. */
    const enrolViewer = async (): Promise<string> => {
      const token = await session('viewer', 'viewer123');
      const secret = (await http().post('/auth/mfa/totp/setup').set(bearer(token)).expect(200)).body.data.secret as string;
      const code = algorithm.codeAt(secret, Math.floor(clock.now() / 30_000));
      await http().post('/auth/mfa/totp/confirm').set(bearer(token)).send({ code }).expect(200);
      const options = (await http().post('/auth/passkeys/options').set(bearer(token)).expect(200)).body.data;
      const response = new SoftAuthenticator('http://localhost:8080').create(options);
      await http().post('/auth/passkeys').set(bearer(token)).send({ response }).expect(201);
      return token;
    };

    it("removes the user's TOTP, recovery codes and passkeys, ends its logins; the next login asks no second step", async function () {
      await build(this);
      const viewer = await enrolViewer();
      assert.equal((await signIn('viewer', 'viewer123')).mfaRequired, true);
      const root = await session('admin', 'admin123');
      const res = await reset(root, '2').expect(200);
      assert.deepEqual(res.body.data, { userId: '2', username: 'viewer', totpRemoved: true, passkeysRemoved: 1, sessionsEnded: 1 });
      refused(await http().get('/auth/me').set(bearer(viewer)), 'token-kicked-out');
      assert.equal(await app.container.get(TOKENS.TotpStore).active('admin', '2'), null);
      assert.equal(await app.container.get(TOKENS.TotpStore).recoveryCodesLeft('admin', '2'), 0);
      assert.deepEqual(await app.container.get(TOKENS.PasskeyStore).list('admin', '2'), []);
      const next = await signIn('viewer', 'viewer123');
      assert.equal(next.mfaRequired, undefined, JSON.stringify(next));
      assert.ok(next.accessToken);
      // Again: nothing left to remove, still 200.
      assert.deepEqual((await reset(root, '2').expect(200)).body.data, {
        userId: '2',
        username: 'viewer',
        totpRemoved: false,
        passkeysRemoved: 0,
        sessionsEnded: 1,
      });
      await app.container.get(QueuedAuditTrail).flush();
      const page = await app.container.get(TOKENS.AuditStore).query({ loginType: 'admin', log: 'operation', limit: 2 });
      assert.deepEqual(
        page.list.map((e) => [e.type, e.action, e.target, e.actor, e.outcome]),
        [
          ['mfa-reset', 'user.mfa-reset', '2', 'admin', 'success'],
          ['mfa-reset', 'user.mfa-reset', '2', 'admin', 'success'],
        ],
      );
    });

    it('needs system:user:resetMfa, covers only whom the caller covers, never its own account, and a recent login', async function () {
      await build(this);
      const viewer = await enrolViewer();
      refused(await reset(viewer, '3'), 'permission-denied');
      const desk = await session('helpdesk', 'viewer123');
      refused(await reset(desk, '1'), 'delegation-denied');
      refused(await reset(desk, '3'), 'delegation-denied');
      refused(await reset(desk, '99'), 'user-not-found');
      clock.advance(301_000);
      refused(await reset(desk, '2'), 'step-up-required');
      assert.equal((await app.container.get(TOKENS.PasskeyStore).list('admin', '2')).length, 1, 'nothing removed yet');
      const fresh = await session('helpdesk', 'viewer123');
      assert.equal((await reset(fresh, '2').expect(200)).body.data.passkeysRemoved, 1);
    });

    it('with svc.mfa.required-roles, the next login of a holder is restricted to enrolling a factor', async function () {
      await build(this, { 'svc.mfa.required-roles': 'viewer' });
      const restricted = await signIn('viewer', 'viewer123');
      assert.deepEqual(restricted.requiredActions, ['mfa-enrolment']);
      await enrolViewer();
      await reset(await session('admin', 'admin123'), '2').expect(200);
      assert.deepEqual((await signIn('viewer', 'viewer123')).requiredActions, ['mfa-enrolment']);
    });
  });
}
