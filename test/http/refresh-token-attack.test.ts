/**
 * Attacks on the refresh-token format `<family>.<n>.<secret>` over HTTP (web app, both stores): the family id is
 * the client's, and it names the one key of the family (`rf:<type>:<family>`). Who knows a victim's family id
 * (the id is logged with a refresh presented twice within the grace) but not a token of it cannot refresh it,
 * revoke it through a forged earlier token, or reach another key through hostile ids (hash tags, `:`, `%`,
 * unicode, overlong): every such token is 401 refresh-token-invalid, and the victim keeps refreshing.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';

const SECRET = 'A'.repeat(32);

for (const kind of STORE_KINDS) {
  describe(`refresh tokens under attack (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra | undefined;
    afterEach(async () => {
      await infra?.dispose();
      infra = undefined;
    });

    async function setup() {
      const clock = new FakeClock(Date.now());
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1 }, kind);
      infra = testInfra(config, { clock, label: 'rtattack' });
      const app = buildBoth(config, infra).web.app;
      const http = () => request(app.callback());
      await http()
        .post('/auth/register')
        .set('X-Forwarded-For', '10.8.0.1')
        .send({ username: 'victim', password: 'victim-pass-1' })
        .expect(201);
      const r = await http().post('/auth/login').set('X-Forwarded-For', '10.8.0.2').send({ username: 'victim', password: 'victim-pass-1' });
      assert.equal(r.status, 200, r.text);
      const refresh = async (token: string) =>
        http().post('/auth/refresh-token').set('X-Forwarded-For', '10.8.0.3').send({ refreshToken: token });
      const refused = async (token: string, why: string) => {
        const res = await refresh(token);
        assert.equal(res.status, 401, `${why}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.equal((JSON.parse(res.text) as { code: string }).code, 'refresh-token-invalid', why);
      };
      return { clock, refresh, refused, first: r.body.refreshToken as string };
    }

    it('a forged token of a known family (live, later or earlier count, forged tag) is invalid and revokes nothing', async function () {
      if (kind === 'redis') await requireRedis(this);
      const { clock, refresh, refused, first } = await setup();
      const family = first.split('.').slice(0, 2).join('.');
      await refused(`${family}.0.${SECRET}`, 'the live count, a guessed secret');
      await refused(`${family}.1.${SECRET}`, 'a later count');
      const second = (await refresh(first)).body.refreshToken as string;
      assert.match(second, new RegExp(`^${family.replace('.', '\\.')}\\.1\\.`));
      clock.advance(5_000); // past the reuse grace: a real earlier token would now revoke the family
      await refused(`${family}.0.${SECRET}`, 'an earlier count with a forged tag');
      const third = await refresh(second);
      assert.equal(third.status, 200, `the victim still refreshes: ${third.text.slice(0, 200)}`);
    });

    it('hostile family ids (hash tags, separators, escapes, unicode, overlong) are invalid, never a 500', async function () {
      if (kind === 'redis') await requireRedis(this);
      const { refresh, refused, first } = await setup();
      const family = first.split('.').slice(0, 2).join('.');
      for (const id of ['{victim}', `{${family}}`, `x:${family}`, `${family}:x`, '%7B%7D', 'é', '\u{1F600}', 'a'.repeat(81), '.', '..']) {
        await refused(`${id}.0.${SECRET}`, JSON.stringify(id));
      }
      for (const t of [
        `${family}.00.${SECRET}`,
        `${family}.-1.${SECRET}`,
        `${family}.1e3.${SECRET}`,
        `${family}.0.${SECRET}=`,
        'f'.repeat(32).toUpperCase(),
      ]) {
        await refused(t, t);
      }
      const body = await refresh('x'.repeat(257));
      assert.equal(body.status, 400, 'over the body limit of the field');
      assert.equal((await refresh(first)).status, 200, 'the victim still refreshes');
    });
  });
}
