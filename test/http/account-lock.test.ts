/**
 * The per-account failure cap holds under a burst of parallel guesses: attempts are counted
 * before the BCrypt compare, so no more than the cap are ever checked.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { requireRedis } from '../support/services';

for (const kind of STORE_KINDS) {
  describe(`account lock under parallel guesses (${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let web: ReturnType<typeof buildBoth>['web'];
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 10 }, kind);
      infra = testInfra(config, { label: 'acctlock' });
      web = buildBoth(config, infra).web;
    });
    after(async () => infra?.dispose());

    it('40 parallel wrong passwords from 40 addresses: at most 10 are checked, the rest 429, then the right password is locked out too', async () => {
      const cb = web.app.callback();
      const guesses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request(cb).post('/auth/login').set('X-Forwarded-For', `10.9.${i}.1`).send({ username: 'alice', password: `wrong-guess-${i}` }),
        ),
      );
      const statuses = guesses.map((r) => r.status);
      const checked = statuses.filter((s) => s === 401).length;
      assert.equal(checked, 10, `exactly the cap is compared: ${statuses.join(',')}`);
      assert.equal(statuses.filter((s) => s === 429).length, 30);
      for (const r of guesses.filter((g) => g.status === 429)) assert.ok(Number(r.headers['retry-after']) >= 1);
      const right = await request(cb).post('/auth/login').set('X-Forwarded-For', '10.9.99.1').send({ username: 'alice', password: 'alice-pass-123' });
      assert.equal(right.status, 429);
    });
  });
}
