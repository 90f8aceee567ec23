import 'reflect-metadata';
/**
 * The audit log routes on both stores: the login log and the operation log searched by an
 * administrator (filters, cursor paging, permissions), and each user's own recent logins.
 */
import assert from 'node:assert/strict';
import type Koa from 'koa';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { adminLogin, bearer } from '../support/flows';
import { requireRedis } from '../support/services';

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';

interface Entry {
  readonly id: string;
  readonly type: string;
  readonly outcome: string;
  readonly username: string | null;
  readonly ip: string | null;
  readonly action: string | null;
  readonly target: string | null;
  readonly actor: string | null;
  readonly reason: string | null;
}

for (const kind of STORE_KINDS) {
  describe(`audit log routes (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra;
    let admin: BuiltApp;
    let web: BuiltApp;
    let root: string;
    let viewer: string;

    const http = (app: Koa) => request(app.callback());
    const flush = () => Promise.all([admin, web].map((a) => a.container.get(QueuedAuditTrail).flush()));
    async function page(path: string, token: string, query: Record<string, string | number> = {}) {
      await flush();
      const r = await http(admin.app).get(path).query(query).set(bearer(token));
      assert.equal(r.status, 200, r.text);
      return r.body.data as { list: Entry[]; nextCursor: string | null };
    }

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 2 }, kind);
      infra = testInfra(config, { label: 'auditlogs' });
      ({ admin, web } = buildBoth(config, infra));
      const login = adminLogin(admin.app);
      await login('admin', 'wrong-1', '10.8.0.9');
      root = (await login('admin', 'admin123', '10.8.0.1')).body.data.accessToken;
      viewer = (await login('viewer', 'viewer123', '10.8.0.2')).body.data.accessToken;
      await http(admin.app)
        .post('/system/user/2/roles')
        .set(bearer(root))
        .send({ roles: ['viewer'] })
        .expect(200);
    });
    after(async () => infra?.dispose());

    it('GET /monitor/login-logs: newest first, filtered by username, outcome and ip', async () => {
      const all = await page('/monitor/login-logs', root);
      assert.deepEqual(
        all.list.map((e) => [e.type, e.username, e.outcome]),
        [
          ['login', 'viewer', 'success'],
          ['login', 'admin', 'success'],
          ['login', 'admin', 'failure'],
        ],
      );
      const fails = await page('/monitor/login-logs', root, { username: 'admin', outcome: 'failure' });
      assert.deepEqual(
        fails.list.map((e) => [e.ip, e.reason]),
        [['10.8.0.9', 'bad-credentials']],
      );
      assert.equal((await page('/monitor/login-logs', root, { ip: '10.8.0.2' })).list[0]?.username, 'viewer');
    });

    it('GET /monitor/login-logs: pages by cursor, and by time', async () => {
      const first = await page('/monitor/login-logs', root, { limit: 2 });
      assert.equal(first.list.length, 2);
      assert.ok(first.nextCursor);
      const second = await page('/monitor/login-logs', root, { limit: 2, cursor: first.nextCursor });
      assert.deepEqual(
        second.list.map((e) => e.outcome),
        ['failure'],
      );
      const ids = [...first.list, ...second.list].map((e) => e.id);
      assert.equal(new Set(ids).size, 3);
      assert.equal((await page('/monitor/login-logs', root, { to: '2000-01-01T00:00:00Z' })).list.length, 0);
      assert.equal((await page('/monitor/login-logs', root, { from: Date.now() - 600_000 })).list.length >= 3, true);
      const bad = await http(admin.app).get('/monitor/login-logs').query({ from: 'yesterday' }).set(bearer(root));
      assert.equal(bad.status, 400);
    });

    it("GET /monitor/login-logs?loginType=web: the members' log", async () => {
      await http(web.app)
        .post('/auth/login')
        .set('X-Forwarded-For', '10.8.1.1')
        .send({ username: 'alice', password: 'alice-pass-123' })
        .expect(200);
      const members = await page('/monitor/login-logs', root, { loginType: 'web' });
      assert.equal(members.list[0]?.username, 'alice');
    });

    it('GET /monitor/operation-logs: who changed what, filtered by action', async () => {
      const ops = await page('/monitor/operation-logs', root, { action: 'user.roles' });
      assert.deepEqual(
        ops.list.map((e) => [e.actor, e.action, e.target, e.outcome]),
        [['admin', 'user.roles', '2', 'success']],
      );
      assert.equal((await page('/monitor/operation-logs', root, { actor: 'nobody' })).list.length, 0);
    });

    it('the logs need their permissions; the refusal is itself in the login log', async () => {
      await http(admin.app).get('/monitor/login-logs').set(bearer(viewer)).expect(403);
      await http(admin.app).get('/monitor/operation-logs').set(bearer(viewer)).expect(403);
      const denied = await page('/monitor/login-logs', root, { type: 'access-denied' });
      assert.deepEqual(
        denied.list.map((e) => [e.username, e.reason, e.target]),
        [
          ['viewer', 'permission-denied', 'GET /monitor/operation-logs'],
          ['viewer', 'permission-denied', 'GET /monitor/login-logs'],
        ],
      );
    });

    it("GET /auth/me/logins: the caller's logins and failed attempts, the current one marked", async () => {
      await flush();
      const r = await http(admin.app).get('/auth/me/logins').set(bearer(root)).expect(200);
      const list = r.body.data as Array<{ outcome: string; ip: string; current: boolean; reason: string | null }>;
      assert.deepEqual(
        list.map((l) => [l.outcome, l.ip, l.current, l.reason]),
        [
          ['success', '10.8.0.1', true, null],
          ['failure', '10.8.0.9', false, 'bad-credentials'],
        ],
      );
    });

    it('GET /user/logins: a member sees their logins with OS and browser, and which is this session', async () => {
      const login = () =>
        http(web.app)
          .post('/auth/login')
          .set('User-Agent', SAFARI)
          .set('X-Forwarded-For', '10.8.2.1')
          .send({ username: 'alice', password: 'alice-pass-123' });
      await login().expect(200);
      const token = (await login().expect(200)).body.accessToken as string;
      await flush();
      const r = await http(web.app).get('/user/logins').set(bearer(token)).expect(200);
      const list = r.body as Array<{ os: string; browser: string; deviceType: string; current: boolean }>;
      assert.equal(list.length, 3);
      assert.deepEqual(list[0], {
        time: (list[0] as unknown as { time: string }).time,
        outcome: 'success',
        reason: null,
        ip: '10.8.2.1',
        os: 'macOS Sonoma',
        browser: 'Safari 17',
        deviceType: 'desktop',
        current: true,
      });
      assert.deepEqual(
        list.map((l) => l.current),
        [true, false, false],
      );
      await http(web.app).get('/user/logins').expect(401);
    });
  });
}
