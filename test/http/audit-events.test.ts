import 'reflect-metadata';
/**
 * Security events recorded at the edge, on both stores: logins (success, failure, rate-limited),
 * logout, refresh and its reuse, kickout, role change, disable, permission denied, an idempotency
 * conflict; a successful authenticated read records nothing; no event carries a secret.
 */
import assert from 'node:assert/strict';
import type Koa from 'koa';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import type { SecurityEvent } from '../../src/application/audit/security-event';
import type { AuditLogName } from '../../src/application/audit/security-event';
import { hashToken, tokenIdOf as tokenIdOfToken } from '../../src/application/session/session-token';
import { TOKENS } from '../../src/application/tokens';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, bearer, signedHeaders } from '../support/flows';
import { requireRedis } from '../support/services';

const SIGN_SECRET = 'audit-sign-secret-0123456789abcdef';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

for (const kind of STORE_KINDS) {
  describe(`audit events over HTTP (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra;
    let admin: BuiltApp;
    let web: BuiltApp;
    let login: ReturnType<typeof adminLogin>;
    let clock: FakeClock;
    /** Every secret a test sent or received: none may appear in any event. */
    const secrets = new Set<string>();

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig(
        { 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 2, 'svc.security.sign.apps': { 'audit-app': SIGN_SECRET } },
        kind,
      );
      clock = new FakeClock(Date.now());
      infra = testInfra(config, { label: 'audit', clock });
      ({ admin, web } = buildBoth(config, infra));
      login = adminLogin(admin.app);
    });
    after(async () => infra?.dispose());

    const http = (app: Koa) => request(app.callback());
    /** The app's events of one log, newest first, once its trail has written what it holds. */
    async function events(
      app: BuiltApp,
      log: AuditLogName,
      limit = 50,
      loginType = app === web ? 'web' : 'admin',
    ): Promise<SecurityEvent[]> {
      await app.container.get(QueuedAuditTrail).flush();
      const page = await app.container.get(TOKENS.AuditStore).query({ loginType: loginType as 'admin' | 'web', log, limit });
      return [...page.list];
    }
    async function signIn(username: string, password: string, ip: string) {
      const r = await login(username, password, ip);
      assert.equal(r.status, 200, r.text);
      const d = r.body.data as { accessToken: string; refreshToken: string };
      secrets.add(d.accessToken).add(d.refreshToken).add(password);
      for (const c of r.headers['set-cookie'] as unknown as string[]) secrets.add(c.split(';')[0]?.split('=')[1] ?? '');
      return d;
    }
    const tokenIdOf = async (username: string, adminToken: string): Promise<string[]> =>
      (
        (await http(admin.app).get('/monitor/online').set(bearer(adminToken)).expect(200)).body.data.list as Array<{
          tokenId: string;
          userName: string;
          username?: string;
        }>
      )
        .filter((s) => (s.userName ?? s.username) === username)
        .map((s) => s.tokenId);

    it('a login: success with who, token id, IP, parsed user agent, request id; a failure with its reason', async () => {
      const r = await request(admin.app.callback()).get('/auth/getConfig');
      assert.equal(r.status, 200);
      const ok = await login('admin', 'admin123', '10.7.0.1');
      assert.equal(ok.status, 200);
      secrets.add(ok.body.data.accessToken).add(ok.body.data.refreshToken).add('admin123');
      const bad = await login('admin', 'not-the-password', '10.7.0.2');
      assert.equal(bad.status, 401);
      secrets.add('not-the-password');
      const [failed, succeeded] = await events(admin, 'login', 2);
      assert.equal(failed?.type, 'login');
      assert.equal(failed?.outcome, 'failure');
      assert.equal(failed?.reason, 'bad-credentials');
      assert.equal(failed?.username, 'admin');
      assert.equal(failed?.ip, '10.7.0.2');
      assert.equal(succeeded?.outcome, 'success');
      assert.equal(succeeded?.userId, '1');
      assert.equal(succeeded?.username, 'admin');
      assert.equal(succeeded?.ip, '10.7.0.1');
      assert.match(succeeded?.tokenId ?? '', /^[0-9a-f]{32}$/);
      assert.deepEqual(await tokenIdOf('admin', ok.body.data.accessToken).then((ids) => ids.includes(succeeded?.tokenId ?? '')), true);
      assert.equal(succeeded?.requestId, ok.headers['x-request-id']);
      assert.equal(succeeded?.log, 'login');
      assert.equal(succeeded?.loginType, 'admin');
    });

    it('the user agent is kept as names', async () => {
      const res = await http(web.app)
        .post('/auth/login')
        .set('User-Agent', CHROME)
        .set('X-Forwarded-For', '10.7.1.1')
        .send({ username: 'alice', password: 'alice-pass-123' });
      assert.equal(res.status, 200, res.text);
      secrets.add(res.body.accessToken).add(res.body.refreshToken).add('alice-pass-123');
      const [e] = await events(web, 'login', 1);
      assert.deepEqual(e?.userAgent, { os: 'Windows 10', browser: 'Chrome 120', deviceType: 'desktop' });
      assert.equal(e?.loginType, 'web');
      assert.equal(e?.userId, '1');
      assert.ok(!JSON.stringify(e).includes('Mozilla'));
    });

    it('a successful authenticated request that is not audited records nothing', async () => {
      const { accessToken } = await signIn('admin', 'admin123', '10.7.2.1');
      const before = (await events(admin, 'login', 500)).length + (await events(admin, 'operation', 500)).length;
      await http(admin.app).get('/auth/me').set(bearer(accessToken)).expect(200);
      await http(admin.app).get('/system/user/list').set(bearer(accessToken)).expect(200);
      await http(admin.app).get('/monitor/online').set(bearer(accessToken)).expect(200);
      assert.deepEqual(admin.container.get(QueuedAuditTrail).depths(), { store: 0, log: 0 });
      const after = (await events(admin, 'login', 500)).length + (await events(admin, 'operation', 500)).length;
      assert.equal(after, before);
    });

    it('logout, refresh rotation and a reused refresh token', async () => {
      const first = await signIn('viewer', 'viewer123', '10.7.3.1');
      const rotated = await http(admin.app).post('/auth/refresh-token').send({ refreshToken: first.refreshToken }).expect(200);
      secrets.add(rotated.body.data.accessToken).add(rotated.body.data.refreshToken);
      clock.advance(5_000); // past the reuse grace: a second use is a reuse, and revokes the login
      await http(admin.app).post('/auth/refresh-token').send({ refreshToken: first.refreshToken }).expect(401);
      const [reused, refreshed] = await events(admin, 'login', 2);
      assert.equal(refreshed?.type, 'refresh-rotated');
      assert.equal(refreshed?.outcome, 'success');
      assert.match(refreshed?.tokenId ?? '', /^[0-9a-f]{32}$/);
      assert.equal(reused?.type, 'refresh-reused');
      assert.equal(reused?.reason, 'refresh-token-reused');

      const again = await signIn('viewer', 'viewer123', '10.7.3.2');
      await http(admin.app).post('/auth/logout').set(bearer(again.accessToken)).expect(200);
      const [out] = await events(admin, 'login', 1);
      assert.equal(out?.type, 'logout');
      assert.equal(out?.username, 'viewer');
      assert.equal(out?.userId, '2');
      assert.match(out?.tokenId ?? '', /^[0-9a-f]{32}$/);
    });

    it('refusals: permission denied, rate limited, a duplicate submission', async () => {
      const viewer = await signIn('viewer', 'viewer123', '10.7.5.2');
      await http(admin.app).delete('/monitor/online/0123456789abcdef').set(bearer(viewer.accessToken)).expect(403);
      const [denied] = await events(admin, 'operation', 1);
      assert.deepEqual(
        { type: denied?.type, outcome: denied?.outcome, reason: denied?.reason, actor: denied?.actor, target: denied?.target },
        { type: 'kickout', outcome: 'failure', reason: 'permission-denied', actor: 'viewer', target: '0123456789abcdef' },
      );

      for (let i = 0; i < 6; i++) await login('ghost', 'wrong', '10.7.5.50');
      const limited = (await events(admin, 'login', 10)).filter((e) => e.reason === 'rate-limited');
      assert.equal(limited.length, 1);
      assert.equal(limited[0]?.type, 'login');
      assert.equal(limited[0]?.ip, '10.7.5.50');

      const root = await signIn('admin', 'admin123', '10.7.5.1');
      const notice = { title: 'audit notice' };
      await http(admin.app).post('/examples/notices').set(bearer(root.accessToken)).send(notice).expect(201);
      await http(admin.app).post('/examples/notices').set(bearer(root.accessToken)).send(notice).expect(409);
      const [conflict] = await events(admin, 'login', 1);
      assert.equal(conflict?.type, 'idempotency-conflict');
      assert.equal(conflict?.reason, 'duplicate-submission');
      assert.equal(conflict?.username, 'admin');
      assert.equal(conflict?.target, 'POST /examples/notices');
    });
    it('operations: kickout, role change and disable, with actor, action, target and summary', async () => {
      const root = await signIn('admin', 'admin123', '10.7.4.1');
      await signIn('viewer', 'viewer123', '10.7.4.2');
      const [victim] = await tokenIdOf('viewer', root.accessToken);
      assert.ok(victim);
      await http(admin.app).delete(`/monitor/online/${victim}`).set(bearer(root.accessToken)).expect(200);
      await http(admin.app)
        .post('/system/user/2/roles')
        .set(bearer(root.accessToken))
        .send({ roles: ['viewer'] })
        .expect(200);
      await http(admin.app).post('/system/user/2/disable').set(bearer(root.accessToken)).expect(200);
      const [disabled, roles, kicked] = await events(admin, 'operation', 3);
      assert.deepEqual(
        { type: kicked?.type, actor: kicked?.actor, action: kicked?.action, target: kicked?.target, outcome: kicked?.outcome },
        { type: 'kickout', actor: 'admin', action: 'session.kickout', target: victim, outcome: 'success' },
      );
      assert.deepEqual(
        { type: roles?.type, action: roles?.action, target: roles?.target, summary: roles?.summary, username: roles?.username },
        { type: 'roles-changed', action: 'user.roles', target: '2', summary: 'roles=viewer', username: 'viewer' },
      );
      assert.deepEqual(
        { type: disabled?.type, action: disabled?.action, target: disabled?.target, username: disabled?.username, log: disabled?.log },
        { type: 'user-disabled', action: 'user.disable', target: '2', username: 'viewer', log: 'operation' },
      );
    });
    it('account lifecycle: a password reset (its password in no event), enable, unlock, a password change', async () => {
      const root = await signIn('admin', 'admin123', '10.7.7.1');
      const reset = await http(admin.app).post('/system/user/2/password').set(bearer(root.accessToken)).send({ generate: true });
      assert.equal(reset.status, 200, reset.text);
      secrets.add(reset.body.data.temporaryPassword as string);
      await http(admin.app).post('/system/user/2/enable').set(bearer(root.accessToken)).expect(200);
      await http(admin.app).post('/system/user/2/unlock').set(bearer(root.accessToken)).expect(200);
      const [unlocked, enabled, wasReset] = await events(admin, 'operation', 3);
      assert.deepEqual(
        [wasReset, enabled, unlocked].map((e) => [e?.type, e?.action, e?.target, e?.actor, e?.outcome]),
        [
          ['password-reset', 'user.password-reset', '2', 'admin', 'success'],
          ['user-enabled', 'user.enable', '2', 'admin', 'success'],
          ['account-unlocked', 'user.unlock', '2', 'admin', 'success'],
        ],
      );
      assert.equal(wasReset?.summary, 'generated');

      const alice = await http(web.app)
        .post('/auth/login')
        .set('X-Forwarded-For', '10.7.7.2')
        .send({ username: 'alice', password: 'alice-pass-123' });
      assert.equal(alice.status, 200, alice.text);
      secrets.add(alice.body.accessToken).add(alice.body.refreshToken);
      const next = 'Correct-Horse-Battery-Staple-9';
      const changed = await http(web.app)
        .post('/user/password')
        .set('X-Forwarded-For', '10.7.7.2')
        .set(bearer(alice.body.accessToken))
        .send({ currentPassword: 'alice-pass-123', newPassword: next });
      assert.equal(changed.status, 200, changed.text);
      secrets.add(next).add(changed.body.refreshToken);
      const [e] = await events(web, 'login', 1);
      assert.deepEqual([e?.type, e?.outcome, e?.username, e?.ip], ['password-changed', 'success', 'alice', '10.7.7.2']);
    });

    it('a kicked-out session used again, a bad signature and a replayed nonce are recorded as refusals', async () => {
      const root = await signIn('admin', 'admin123', '10.7.6.1');
      const victim = await signIn('admin', 'admin123', '10.7.6.2');
      const victimId = tokenIdOfToken(hashToken(victim.accessToken));
      await http(admin.app).delete(`/monitor/online/${victimId}`).set(bearer(root.accessToken)).expect(200);
      await http(admin.app).get('/auth/me').set('X-Forwarded-For', '10.7.6.9').set(bearer(victim.accessToken)).expect(401);
      const body = '{"a":1}';
      const headers = signedHeaders('audit-app', SIGN_SECRET, body);
      const bad = { ...headers, 'X-Sign': headers['X-Sign']?.replace(/^./, (c) => (c === '0' ? '1' : '0')) ?? '' };
      await http(web.app).post('/open/echo').set('X-Forwarded-For', '10.7.6.3').set(bad).type('json').send(body).expect(401);
      await http(web.app).post('/open/echo').set('X-Forwarded-For', '10.7.6.4').set(headers).type('json').send(body).expect(200);
      await http(web.app).post('/open/echo').set('X-Forwarded-For', '10.7.6.4').set(headers).type('json').send(body).expect(401);
      const [refused] = (await events(admin, 'login', 20)).filter((e) => e.type === 'session-refused');
      assert.deepEqual([refused?.reason, refused?.ip, refused?.target], ['token-kicked-out', '10.7.6.9', 'GET /auth/me']);
      const signing = (await events(web, 'login', 20)).filter((e) => e.type === 'signature-refused' || e.type === 'nonce-replayed');
      assert.deepEqual(
        signing.map((e) => [e.type, e.reason, e.ip]),
        [
          ['nonce-replayed', 'sign-nonce-replayed', '10.7.6.4'],
          ['signature-refused', 'sign-invalid', '10.7.6.3'],
        ],
      );
    });

    it('no event carries a password, token, refresh token or cookie sent or received above', async () => {
      assert.ok(secrets.size >= 10);
      const all = [
        ...(await events(admin, 'login', 500)),
        ...(await events(admin, 'operation', 500)),
        ...(await events(web, 'login', 500)),
      ];
      assert.ok(all.length >= 15);
      const text = JSON.stringify(all);
      for (const s of secrets) assert.ok(s.length < 6 || !text.includes(s), `an event carries a secret: ${s.slice(0, 8)}...`);
    });
  });
}
