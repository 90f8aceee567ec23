/**
 * `GET /idempotent/token` is metered and cheap (issue 23, finding 2: one client filled Redis with
 * ~3,500 stored tokens a second): it is rate-limited per client IP (and per session when the
 * request presents an access token). Both stores.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SessionManagers } from '../../src/application/session/session-manager';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { requireRedis } from '../support/services';

for (const kind of STORE_KINDS) {
  describe(`GET /idempotent/token is metered (${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let ipSeq = 0;
    const freshIp = () => `10.23.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1' }, kind);
      infra = testInfra(config, { label: 'idem-meter' });
      apps = buildBoth(config, infra);
    });
    after(async () => infra?.dispose());

    const web = () => request(apps.web.app.callback());
    const member = async () =>
      `Bearer ${(await apps.web.container.get(SessionManagers).get('web').login({ userId: `m-${randomUUID().slice(0, 8)}`, username: 'meter', roles: ['member'], permissions: [] })).token}`;

    it('4,000 anonymous token requests from one IP are mostly 429', async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let batch = 0; batch < 40; batch++) {
        const rs = await Promise.all(Array.from({ length: 100 }, () => web().get('/idempotent/token').set('X-Forwarded-For', ip)));
        statuses.push(...rs.map((r) => r.status));
      }
      const ok = statuses.filter((s) => s === 200).length;
      assert.equal(ok, 60, 'the default limit: 60 per minute per client IP');
      assert.equal(statuses.filter((s) => s === 429).length, 4000 - 60);
    });

    it('per session too: one session fetching from many IPs is refused after the limit; both policies are listed', async () => {
      const auth = await member();
      const statuses: number[] = [];
      let last: request.Response | undefined;
      for (let i = 0; i < 61; i++) {
        last = await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).set('Authorization', auth);
        statuses.push(last.status);
      }
      assert.equal(statuses.filter((s) => s === 200).length, 60, statuses.join(','));
      assert.equal(last?.status, 429);
      assert.equal((JSON.parse(last?.text ?? '{}') as { code?: string }).code, 'rate-limited');
      assert.ok(Number(last?.headers['retry-after']) >= 1);
      assert.match(String(last?.headers['ratelimit-policy']), /^"idempotent-token";q=60;w=60, "idempotent-token-session";q=60;w=60$/);
      assert.match(String(last?.headers.ratelimit), /^"idempotent-token";r=59;t=\d+, "idempotent-token-session";r=0;t=\d+$/);
      // Another session, and anonymous callers, from the same IPs are not affected.
      await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).set('Authorization', await member()).expect(200);
      await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).expect(200);
    });

    it('an access token that is not valid answers 401, counted by the IP limit', async () => {
      const ip = freshIp();
      const res = await web().get('/idempotent/token').set('X-Forwarded-For', ip).set('Authorization', 'Bearer not-a-live-token');
      assert.equal(res.status, 401);
      assert.match(String(res.headers.ratelimit), /^"idempotent-token";r=59;t=\d+$/);
    });
  });
}
