/** `POST /user/password` on the web app, on each store: plain JSON, problem+json failures, the caller stays. */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { BuiltApp } from '../../src/main/operations';
import { buildWebApp } from '../../src/main/web';
import { STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { bearer } from '../support/flows';
import { requireRedis } from '../support/services';

let ipSeq = 0;
const ip = () => `10.78.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

for (const kind of STORE_KINDS) {
  describe(`password change on the web app (${kind} store)`, function () {
    let infra: TestInfra;
    let app: BuiltApp;

    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1' }, kind);
      infra = testInfra(config, { label: `pwweb${kind}` });
      app = buildWebApp(config, infra);
    });
    afterEach(async () => infra?.dispose());

    const http = () => request(app.app.callback());
    const login = async (password: string) => http().post('/auth/login').set('X-Forwarded-For', ip()).send({ username: 'alice', password });
    const change = (token: string, body: object) =>
      http().post('/user/password').set(bearer(token)).set('X-Forwarded-For', ip()).send(body);

    it('changes the password, ends the other sessions, keeps the caller; failures are problem+json', async () => {
      const a = (await login('alice-pass-123')).body;
      const b = (await login('alice-pass-123')).body;
      const wrong = await change(a.accessToken, { currentPassword: 'not-alice-pass', newPassword: 'a fine new passphrase' }).expect(401);
      assert.match(wrong.headers['content-type'] ?? '', /application\/problem\+json/);
      assert.equal(wrong.body.code, 'current-password-wrong');
      const weak = await change(a.accessToken, { currentPassword: 'alice-pass-123', newPassword: 'qwertyuiop' }).expect(400);
      assert.equal(weak.body.code, 'password-policy');
      assert.equal(weak.body.errors[0].pointer, '/newPassword');
      const bad = await change(a.accessToken, { currentPassword: 'alice-pass-123' }).expect(400);
      assert.equal(bad.body.code, 'validation-failed');
      const ok = await change(a.accessToken, { currentPassword: 'alice-pass-123', newPassword: 'a fine new passphrase' }).expect(200);
      assert.equal(ok.body.sessionsEnded, 1);
      assert.equal(typeof ok.body.refreshToken, 'string');
      await http().get('/user/profile').set(bearer(a.accessToken)).expect(200);
      await http().get('/user/profile').set(bearer(b.accessToken)).expect(401);
      assert.equal((await login('alice-pass-123')).status, 401);
      assert.equal((await login('a fine new passphrase')).status, 200);
    });
  });
}
