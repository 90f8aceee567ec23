/**
 * `GET /idempotent/token` is metered and cheap (issue 23, finding 2: one client filled Redis with
 * ~3,500 stored tokens a second): it is rate-limited per client IP (and per session when the
 * request presents an access token), and issuing a token writes nothing to the store; only a
 * spent token is stored. Both stores: the store's keys are counted before and after.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import type { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { REDIS_URL, requireRedis } from '../support/services';

/**
 * Every key the infrastructure holds but the audit trail's (counted apart: a refused flood is one
 * security event, docs/audit.md), and those of the key-value store (where tokens lived).
 */
async function keyCounts(kind: StoreKind, infra: TestInfra): Promise<{ all: number; kv: number; audit: number }> {
  if (kind === 'memory') {
    const backend = infra.health as unknown as InMemoryBackend;
    return { all: backend.size(), kv: backend.kv.size(), audit: 0 };
  }
  const c = new Redis(REDIS_URL);
  try {
    const scan = async (match: string): Promise<number> => {
      let cursor = '0';
      let n = 0;
      do {
        const [next, keys] = await c.scan(cursor, 'MATCH', match, 'COUNT', 1000);
        cursor = next;
        n += keys.length;
      } while (cursor !== '0');
      return n;
    };
    const audit = await scan(`${infra.keyPrefix}ev*`);
    return { all: (await scan(`${infra.keyPrefix}*`)) - audit, kv: await scan(`${infra.keyPrefix}kv:*`), audit };
  } finally {
    c.disconnect();
  }
}

for (const kind of STORE_KINDS) {
  describe(`GET /idempotent/token is metered and writes nothing (${kind} store)`, function () {
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
      `Bearer ${
        (
          await apps.web.container
            .get(SessionManagers)
            .get('web')
            .login({ userId: `m-${randomUUID().slice(0, 8)}`, username: 'meter', roles: ['member'], permissions: [] })
        ).token
      }`;

    it('4,000 anonymous token requests from one IP are mostly 429 and add no key', async () => {
      const ip = freshIp();
      const before = await keyCounts(kind, infra);
      const statuses: number[] = [];
      for (let batch = 0; batch < 40; batch++) {
        const rs = await Promise.all(Array.from({ length: 100 }, () => web().get('/idempotent/token').set('X-Forwarded-For', ip)));
        statuses.push(...rs.map((r) => r.status));
      }
      const after = await keyCounts(kind, infra);
      const ok = statuses.filter((s) => s === 200).length;
      assert.equal(ok, 60, 'the default limit: 60 per minute per client IP');
      assert.equal(statuses.filter((s) => s === 429).length, 4000 - 60);
      assert.equal(after.kv - before.kv, 0, 'no token is stored');
      assert.ok(after.all - before.all <= 1, `at most the IP's rate-limit window is added (${after.all - before.all} keys)`);
      // The audit trail records the flood once (its stream and batch list at most are new), not 3,940 times.
      await apps.web.container.get(QueuedAuditTrail).flush();
      const refused = await apps.web.container.get(TOKENS.AuditStore).query({ loginType: 'web', log: 'login', ip, limit: 100 });
      assert.deepEqual(
        refused.list.map((e) => [e.type, e.target]),
        [['rate-limited', 'GET /idempotent/token']],
      );
      assert.ok((await keyCounts(kind, infra)).audit - before.audit <= 2);
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
      await web()
        .get('/idempotent/token')
        .set('X-Forwarded-For', freshIp())
        .set('Authorization', await member())
        .expect(200);
      await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).expect(200);
    });

    it('an access token that is not valid answers 401, counted by the IP limit', async () => {
      const ip = freshIp();
      const res = await web().get('/idempotent/token').set('X-Forwarded-For', ip).set('Authorization', 'Bearer not-a-live-token');
      assert.equal(res.status, 401);
      assert.match(String(res.headers.ratelimit), /^"idempotent-token";r=59;t=\d+$/);
    });

    it('an allowed fetch writes nothing, anonymous or bound to a session; it carries the RateLimit headers', async () => {
      const auth = await member();
      const before = await keyCounts(kind, infra);
      for (let i = 0; i < 10; i++) {
        const anonymous = await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).expect(200);
        assert.match(String(anonymous.headers['ratelimit-policy']), /"idempotent-token";q=60;w=60/);
        assert.match(String(anonymous.headers.ratelimit), /"idempotent-token";r=59;t=\d+/);
        const bound = await web().get('/idempotent/token').set('X-Forwarded-For', freshIp()).set('Authorization', auth).expect(200);
        assert.ok(typeof bound.body.token === 'string' && bound.body.token !== anonymous.body.token);
      }
      assert.equal((await keyCounts(kind, infra)).kv - before.kv, 0, 'issuing stores no token');
    });
  });
}
