import 'reflect-metadata';
/**
 * Two instances on one Redis make one audit trail: logins spread over both, at once, appear each
 * once in the login log either instance answers, and the log's hash chain has no gap or fork.
 */
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import request from 'supertest';
import { QueuedAuditTrail } from '../../src/application/audit/queued-audit-trail';
import { TOKENS } from '../../src/application/tokens';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import type { BuiltApp } from '../../src/main/operations';
import { testConfig } from '../support/apps';
import { adminLogin, bearer } from '../support/flows';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';

describe('audit trail: two instances on one Redis', function () {
  this.timeout(60_000);
  const prefix = testKeyPrefix('audit-two');
  let infras: Infrastructure[] = [];
  let apps: BuiltApp[] = [];

  before(async function () {
    await requireRedis(this);
    const config = testConfig(
      { 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 2, 'session.max-login-count': -1 },
      'redis',
    );
    infras = [0, 1].map(() => createInfrastructure(config, { log: silentLogger, keyPrefix: prefix }));
    apps = infras.map((i) => buildAdminApp(config, i));
  });
  after(async () => {
    for (const i of infras) await i.close();
    const c = new Redis(REDIS_URL);
    await deleteByPrefix(c, prefix);
    c.disconnect();
  });

  it('40 logins spread over both instances: each once in the log, one unbroken chain', async () => {
    const logins = apps.map((a) => adminLogin(a.app));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (logins[i % 2] as ReturnType<typeof adminLogin>)(
          i % 4 === 3 ? 'ghost' : 'admin',
          i % 4 === 3 ? 'x' : 'admin123',
          `10.3.${i >> 4}.${i}`,
        ),
      ),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 30);
    await Promise.all(apps.map((a) => a.container.get(QueuedAuditTrail).flush()));
    const token = (results.find((r) => r.status === 200) as { body: { data: { accessToken: string } } }).body.data.accessToken;
    for (const app of apps) {
      const r = await request(app.app.callback()).get('/monitor/login-logs').query({ limit: 100 }).set(bearer(token)).expect(200);
      const list = r.body.data.list as Array<{ id: string; ip: string }>;
      assert.equal(list.length, 40);
      assert.equal(new Set(list.map((e) => e.id)).size, 40, 'each event once');
      assert.deepEqual(new Set(list.map((e) => e.ip)).size, 40);
    }
    const chain = await apps[0]?.container.get(TOKENS.AuditStore).verifyChain('admin', 'login');
    assert.deepEqual([chain?.checked, chain?.fromStart, chain?.firstBreak], [40, true, null]);
  });
});
