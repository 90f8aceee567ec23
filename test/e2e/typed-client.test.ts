/**
 * The example clients of clients/example (openapi-fetch on the generated clients/*.d.ts) run their flows against
 * a listening instance, over real HTTP with the global fetch: what the generated types promise is what the apps
 * answer.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminFlow, AdminApi, type CaptchaSolver } from '../../clients/example/admin-client';
import { ApiError, apiError, isRecord } from '../../clients/example/payload';
import { webFlow, WebApi } from '../../clients/example/web-client';
import { createHttpServer } from '../../src/adapters/koa/http-server';
import type { AppConfig, ConfigKey } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

interface Running {
  readonly admin: string;
  readonly web: string;
  readonly infra: TestInfra;
  stop(): Promise<void>;
}

/** Both apps of one instance, each on a loopback port the OS picks. */
async function start(overrides: Partial<Record<ConfigKey, unknown>> = {}): Promise<Running> {
  const config: AppConfig = testConfig(overrides);
  const infra = testInfra(config, { label: 'typed-client' });
  const apps = buildBoth(config, infra);
  const servers: http.Server[] = [];
  const url: Record<'admin' | 'web', string> = { admin: '', web: '' };
  for (const name of ['admin', 'web'] as const) {
    const server = createHttpServer(apps[name].app.callback(), {
      format: name === 'admin' ? 'envelope' : 'problem',
      problemBaseUri: config.problemBaseUri,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
  }
  return {
    ...url,
    infra,
    async stop() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      await infra.dispose();
    },
  };
}

async function rejectsWith(p: Promise<unknown>, status: number, code: string | number): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.status, status, e.message);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

describe('typed example clients (openapi-fetch on clients/*.d.ts) against a running instance', function () {
  this.timeout(30_000);

  describe('test profile (RSA-OAEP, no captcha, examples on)', () => {
    let run: Running;
    before(async () => {
      run = await start();
    });
    after(async () => run?.stop());

    it('admin: getConfig, RSA-encrypted login, /auth/me, refresh, logout', async () => {
      const r = await adminFlow(run.admin, 'admin', 'admin123');
      assert.equal(r.login.username, 'admin');
      assert.deepEqual(r.login.permissions, ['*:*:*']);
      assert.ok(r.login.roles.includes('admin'));
      assert.equal(r.me.username, 'admin');
      assert.deepEqual(r.me.permissions, ['*:*:*']);
      assert.notEqual(r.refreshed.accessToken, r.login.accessToken);
      assert.notEqual(r.refreshed.refreshToken, r.login.refreshToken);
      assert.equal(r.meAfterRefresh.userId, r.me.userId);
      assert.deepEqual(r.logout, { loggedOut: true, userId: r.me.userId });
    });

    it('admin: the refresh ends the old access token, the logout the new one and its refresh token; a wrong password is 401', async () => {
      const api = new AdminApi(run.admin);
      assert.equal((await api.loginConfig()).rsaPadding, 'oaep-sha256');
      const first = await api.login('admin', 'admin123');
      const second = await api.refresh();
      const stale = await api.client.GET('/auth/me', { headers: { Authorization: `Bearer ${first.accessToken}` } });
      assert.equal(stale.response.status, 401);
      assert.equal(stale.data, undefined);
      await api.logout();
      assert.equal(api.tokens.tokens, undefined);
      await assert.rejects(api.refresh(), /not logged in/);
      const ended = await api.client.GET('/auth/me', { headers: { Authorization: `Bearer ${second.accessToken}` } });
      assert.equal(ended.response.status, 401);
      assert.ok(second.refreshToken !== undefined, 'a login with remember-me (the default) comes with a refresh token');
      const refused = await api.client.POST('/auth/refresh-token', { body: { refreshToken: second.refreshToken } });
      assert.equal(refused.response.status, 401);
      assert.equal(apiError(refused.response, refused.error).code, 40111);
      await rejectsWith(api.me(), 401, 40100);
      await rejectsWith(api.login('admin', 'not-the-password'), 401, 40110);
    });

    it('web: plain login, profile, an order with its idempotency token, refresh, logout', async () => {
      const r = await webFlow(run.web, 'alice', 'alice-pass-123', { item: 'book', quantity: 2 });
      assert.equal(r.profile.username, 'alice');
      assert.equal(r.profile.nickname.length > 0, true);
      assert.deepEqual(r.created.data, { item: 'book', quantity: 2 });
      assert.ok(!Number.isNaN(Date.parse(r.created.createdAt)));
      assert.notEqual(r.refreshed.accessToken, r.login.accessToken);
      assert.equal(r.profileAfterRefresh.userId, r.profile.userId);
      assert.deepEqual(r.logout, { loggedOut: true, userId: r.profile.userId });
    });

    it('web: an idempotency token creates one order only; the orders list holds it; after logout the profile is 401', async () => {
      const api = new WebApi(run.web);
      const { accessToken } = await api.login('alice', 'alice-pass-123');
      const { token, expiresIn } = await api.idempotencyToken();
      assert.ok(expiresIn > 0);
      const order = await api.createOrder('pen', 3, token);
      await rejectsWith(api.createOrder('pen', 3, token), 409, 'idempotency-token-invalid');
      const list = await api.client.GET('/orders');
      assert.equal(list.response.status, 200);
      assert.ok(Array.isArray(list.data) && list.data.some((o: unknown) => isRecord(o) && o.id === order.id), JSON.stringify(list.data));
      await api.logout();
      await rejectsWith(api.profile(), 401, 'token-missing');
      const ended = await api.client.GET('/user/profile', { headers: { Authorization: `Bearer ${accessToken}` } });
      assert.equal(ended.response.status, 401);
      await rejectsWith(api.login('alice', 'wrong-password-1'), 401, 'bad-credentials');
    });
  });

  describe('admin with PKCS#1 v1.5 padding and the captcha on', () => {
    let run: Running;
    before(async () => {
      run = await start({ 'svc.rsa.padding': 'pkcs1', 'svc.captcha.enabled': true, 'svc.captcha.captcha-type': 'math' });
    });
    after(async () => run?.stop());

    /** Answers as a person reading the image would: the test peeks at the stored answer (and puts it back). */
    const peek: CaptchaSolver = async ({ img, uuid }) => {
      assert.match(img, /^data:image\/svg\+xml;base64,/);
      const stored = await run.infra.captchas.take('admin', uuid);
      assert.ok(stored);
      await run.infra.captchas.save('admin', uuid, stored, 60_000);
      return stored.answer;
    };

    it('the client solves the captcha, encrypts with pkcs1 and runs the flow', async () => {
      const r = await adminFlow(run.admin, 'admin', 'admin123', peek);
      assert.equal(r.me.username, 'admin');
      assert.equal(r.logout.loggedOut, true);
    });

    it('a wrong captcha answer is 400 captcha-wrong; no solver is a client-side error', async () => {
      await rejectsWith(new AdminApi(run.admin, async () => 'not-a-number').login('admin', 'admin123'), 400, 40012);
      await assert.rejects(new AdminApi(run.admin).login('admin', 'admin123'), /no solver/);
    });
  });
});
