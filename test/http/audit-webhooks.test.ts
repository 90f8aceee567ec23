import 'reflect-metadata';
/**
 * Security events delivered as Standard Webhooks to a real HTTP endpoint started here, each
 * request verified with the reference library (`standardwebhooks`), not with our own code: in
 * order, the types the endpoint asked for; an endpoint answering 500 gets every event once it
 * answers again, and no login notices; on Redis, pending deliveries survive a restart.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import type { ConfigKey } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type StoreKind } from '../support/apps';
import { adminLogin } from '../support/flows';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';
import Redis from 'ioredis';

interface Received {
  readonly id: string;
  readonly type: string;
  readonly data: { readonly type: string; readonly username?: string; readonly ip?: string; readonly outcome: string };
}

/** An endpoint on 127.0.0.1 that verifies every request with standardwebhooks; `status` is what it answers. */
class Receiver {
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  readonly verified: Received[] = [];
  readonly refused: string[] = [];
  status = 204;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (this.status >= 300) {
        res.writeHead(this.status).end();
        return;
      }
      try {
        const payload = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as Omit<Received, 'id'>;
        this.verified.push({ id: String(req.headers['webhook-id']), ...payload });
        res.writeHead(this.status).end();
      } catch (e) {
        this.refused.push(String(e));
        res.writeHead(400).end();
      }
    });
  });
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
  async until(n: number, ms = 20_000): Promise<Received[]> {
    const deadline = Date.now() + ms;
    while (this.verified.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return this.verified;
  }
}

function configFor(kind: StoreKind, url: string, secret: string, extra: Partial<Record<ConfigKey, unknown>> = {}) {
  return testConfig(
    {
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.crypto.worker-threads': 2,
      'svc.audit.sinks': 'store,webhook',
      'svc.audit.webhooks': JSON.stringify({ [url]: { secret, types: ['login', 'logout'] } }),
      ...extra,
    },
    kind,
  );
}

for (const kind of STORE_KINDS) {
  describe(`audit webhooks (${kind} store)`, function () {
    this.timeout(60_000);
    const receiver = new Receiver();
    let url: string;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      url = await receiver.start();
    });
    after(() => receiver.stop());

    it('delivers the events asked for, in order, each verified by standardwebhooks; a 500 delays them, never a login', async () => {
      const config = configFor(kind, url, receiver.secret);
      const infra = testInfra(config, { label: 'webhooks' });
      try {
        const { admin } = buildBoth(config, infra);
        const login = adminLogin(admin.app);
        const r = await login('admin', 'admin123', '10.6.0.1');
        assert.equal(r.status, 200);
        await login('admin', 'wrong', '10.6.0.2');
        const got = await receiver.until(2);
        assert.deepEqual(
          got.map((m) => [m.type, m.data.outcome, m.data.ip]),
          [
            ['audit.login', 'success', '10.6.0.1'],
            ['audit.login', 'failure', '10.6.0.2'],
          ],
        );
        const text = JSON.stringify(got);
        assert.ok(!text.includes(r.body.data.accessToken) && !text.includes('admin123'), 'no secret in a webhook');

        // The endpoint fails for a while: the logins go on as usual; its messages wait and are retried.
        receiver.status = 500;
        for (let i = 0; i < 4; i++) assert.equal((await login('admin', 'admin123', `10.6.1.${i}`)).status, 200);
        await new Promise((res) => setTimeout(res, 2_500));
        assert.equal(receiver.verified.length, 2);
        receiver.status = 204;
        const all = await receiver.until(6, 30_000);
        assert.deepEqual(
          all.slice(2).map((m) => m.data.ip),
          ['10.6.1.0', '10.6.1.1', '10.6.1.2', '10.6.1.3'],
          'every message, in order, once the endpoint answers',
        );
        assert.equal(new Set(all.map((m) => m.id)).size, all.length, 'each once');
        assert.deepEqual(receiver.refused, []);
        const prom = (await request(admin.app.callback()).get('/actuator/prometheus')).text;
        assert.match(prom, /authguard_audit_webhook_deliveries_total\{[^}]*outcome="failed"[^}]*\} [1-9]/);
      } finally {
        await infra.dispose();
      }
    });

    if (kind === 'redis') {
      it('pending deliveries survive a restart: a new process on the same Redis delivers them', async () => {
        receiver.verified.length = 0;
        receiver.status = 503;
        const keyPrefix = testKeyPrefix('webhook-restart');
        const config = configFor(kind, url, receiver.secret);
        const first = createInfrastructure(config, { log: silentLogger, keyPrefix });
        const { admin } = buildBoth(config, first);
        for (let i = 0; i < 3; i++) assert.equal((await adminLogin(admin.app)('admin', 'admin123', `10.6.2.${i}`)).status, 200);
        await first.close(); // the trail writes its last batch to the outbox, then the process is gone
        assert.equal(receiver.verified.length, 0);

        receiver.status = 204;
        const second = createInfrastructure(config, { log: silentLogger, keyPrefix });
        try {
          buildBoth(config, second);
          const got = await receiver.until(3);
          assert.deepEqual(
            got.map((m) => m.data.ip),
            ['10.6.2.0', '10.6.2.1', '10.6.2.2'],
          );
        } finally {
          await second.close();
          const c = new Redis(REDIS_URL);
          await deleteByPrefix(c, keyPrefix);
          c.disconnect();
        }
      });
    }
  });
}
