/**
 * A member whose nickname holds a lone UTF-16 surrogate (any JSON client can send "\ud800") on both stores:
 * the session policies still reach their sessions. On Redis, JSON.stringify writes the surrogate as an escape
 * that the Lua scripts' cjson refused, so the kickout script took such a session for dead: a replacing login
 * (is-concurrent=false) and the login cap (max-login-count) left the older sessions usable.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { ConfigKey } from '../../src/main/config';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { bearer } from '../support/flows';
import { requireRedis } from '../support/services';

for (const kind of STORE_KINDS) {
  describe(`a member's nickname with a lone surrogate (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra | undefined;
    afterEach(async () => {
      await infra?.dispose();
      infra = undefined;
    });

    async function web(overrides: Partial<Record<ConfigKey, unknown>>) {
      const clock = new FakeClock(Date.now());
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1, ...overrides }, kind);
      infra = testInfra(config, { clock, label: 'hostilenick' });
      const app = buildBoth(config, infra).web.app;
      const http = () => request(app.callback());
      const body = '{"username":"mallory","password":"mallory-pass-1","nickname":"mal\\ud800lory"}';
      await http().post('/auth/register').set('X-Forwarded-For', '10.9.0.1').set('Content-Type', 'application/json').send(body).expect(201);
      const login = async () => {
        clock.advance(1000);
        const r = await http()
          .post('/auth/login')
          .set('X-Forwarded-For', '10.9.0.2')
          .send({ username: 'mallory', password: 'mallory-pass-1' });
        assert.equal(r.status, 200, r.text);
        return r.body.accessToken as string;
      };
      return { http, login };
    }

    it('is-concurrent=false: the next login replaces the session (401 token-replaced)', async function () {
      if (kind === 'redis') await requireRedis(this);
      const { http, login } = await web({ 'session.is-concurrent': false });
      const first = await login();
      const me = await http().get('/user/profile').set(bearer(first)).expect(200);
      assert.equal(me.body.nickname, 'mal\ud800lory');
      const second = await login();
      const r = await http().get('/user/profile').set(bearer(first));
      assert.equal(r.status, 401, 'the replaced session must not stay usable');
      await http().get('/user/profile').set(bearer(second)).expect(200);
    });

    it('max-login-count=1: the next login ends the older session', async function () {
      if (kind === 'redis') await requireRedis(this);
      const { http, login } = await web({ 'session.max-login-count': 1 });
      const first = await login();
      const second = await login();
      assert.equal((await http().get('/user/profile').set(bearer(first))).status, 401, 'over the cap');
      await http().get('/user/profile').set(bearer(second)).expect(200);
    });
  });
}
