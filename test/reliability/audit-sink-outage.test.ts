import 'reflect-metadata';
/**
 * A sink that is down never turns a request into a 5xx nor holds it up: the audit store on a
 * throw-away Redis that is killed while logins go on. Every login answers as it would (200 or
 * 401), within a bound; the failed writes are counted and retried with backoff; once Redis is
 * back, every event recorded during the outage is written, in order, none lost.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import type { AuditStore } from '../../src/application/ports/audit-store';
import { RedisAuditStore } from '../../src/adapters/redis/audit-store';
import { createRedisClient } from '../../src/adapters/redis/redis-client';
import { failClosed } from '../../src/adapters/store-guard';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { adminLogin, bearer } from '../support/flows';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';
import { testKeyPrefix } from '../support/services';

describe('audit sink outage: the requests never notice', function () {
  this.timeout(60_000);
  let redis: DisposableRedis;
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  let client: ReturnType<typeof createRedisClient>;

  before(async function () {
    await requireRedisServer(this);
    redis = await DisposableRedis.create();
    client = createRedisClient(redis.url, { commandTimeoutMs: 300 });
    client.on('error', () => undefined);
    // Everything on the in-process store but the audit trail's store, which lives on the Redis that dies.
    const audit: AuditStore = failClosed(new RedisAuditStore(client, testKeyPrefix('auditout')), ['append', 'query']);
    const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 2 });
    const base = testInfra(config, { label: 'auditout' });
    infra = { ...base, audit };
    apps = buildBoth(config, infra);
  });
  after(async () => {
    await infra?.dispose();
    client?.disconnect();
    await redis?.kill();
  });

  const metric = async (line: RegExp): Promise<number> => {
    const text = (await request(apps.admin.app.callback()).get('/actuator/prometheus').expect(200)).text;
    const m = text.split('\n').find((l) => line.test(l));
    return m === undefined ? 0 : Number(m.split(' ').pop());
  };

  it('logins answer 200 / 401 within the bound while the sink is down; the events arrive once it is back', async () => {
    const login = adminLogin(apps.admin.app);
    const trail = apps.admin.container.get(QueuedAuditTrail);
    const root = (await login('admin', 'admin123', '10.9.0.1')).body.data.accessToken as string;
    await trail.flush();
    const logs = () => request(apps.admin.app.callback()).get('/monitor/login-logs').query({ limit: 100 }).set(bearer(root));
    assert.equal((await logs().expect(200)).body.data.list.length, 1);

    await redis.kill();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = Date.now();
      const r = await login(i % 2 === 0 ? 'admin' : 'ghost', i % 2 === 0 ? 'admin123' : 'wrong', `10.9.1.${i}`);
      statuses.push(r.status);
      assert.ok(Date.now() - started < 2000, `login ${i} took ${Date.now() - started} ms`);
    }
    assert.deepEqual(new Set(statuses), new Set([200, 401]), `no 5xx: ${statuses.join(',')}`);
    // The search needs the store it searches: that one answers 503, in the app's format.
    const down = await logs();
    assert.equal(down.status, 503);
    assert.equal(down.body.data, null);

    await new Promise((r) => setTimeout(r, 800));
    assert.ok((await metric(/^authguard_audit_events_total\{.*sink="store".*outcome="failed"/)) > 0, 'failed writes are counted');
    assert.ok((await metric(/^authguard_audit_queue_depth\{.*sink="store"/)) >= 20, 'the events wait in the queue');

    await redis.start();
    const deadline = Date.now() + 40_000;
    let written = 0;
    while (Date.now() < deadline) {
      const r = await logs();
      if (r.status === 200) written = (r.body.data.list as unknown[]).length;
      if (written >= 20 && trail.depths().store === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // The restarted Redis kept nothing on disk (the event written before is gone): it holds exactly what was queued during the outage.
    const list = (await logs().expect(200)).body.data.list as Array<{ ip: string; outcome: string }>;
    assert.equal(list.length, 20, 'every event of the outage, once');
    assert.deepEqual(
      list
        .filter((e) => e.ip.startsWith('10.9.1.'))
        .map((e) => e.ip)
        .reverse(),
      Array.from({ length: 20 }, (_, i) => `10.9.1.${i}`),
      'in order, none lost',
    );
    assert.equal(await metric(/^authguard_audit_queue_depth\{.*sink="store"/), 0);
  });
});
