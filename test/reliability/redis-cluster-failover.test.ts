/**
 * A Redis Cluster master SIGKILLed while both apps serve traffic (authenticated reads on every
 * master's slots, and logins and logouts), with svc.redis.wait-replicas=1: its replica takes over;
 * requests on the lost master's slots succeed again within 10 s without restarting anything in the
 * service; meanwhile every failure is a 503 in the app's own format (admin envelope, web
 * problem+json), never a 500 or a crash; every session and logout acknowledged before (or during)
 * the failover holds afterwards. Acknowledged writes answer 503 while the new master has no replica
 * (wait-replicas=1), and succeed again once the killed node is back as its replica.
 * Skipped loudly without redis-server / redis-cli (fails under CI=true).
 */
import assert from 'node:assert/strict';
import type request from 'supertest';
import { RedisKeys } from '../../src/adapters/redis/key-layout';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken } from '../../src/application/session/session-token';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, clusterTestConfig } from '../support/apps';
import { adminLogin, agent, bearer, untilReady } from '../support/flows';
import { sleep } from '../support/redis-processes';
import { RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'cluster-failover-pw';
type App = 'admin' | 'web';

/** A failed answer that is not a 503 in the app's own format, or null. */
function misfit(app: App, r: request.Response): string | null {
  if (r.status !== 503) return `${app} ${r.status} ${r.text.slice(0, 200)}`;
  if (!r.headers['retry-after']) return `${app} 503 without Retry-After`;
  if (app === 'admin') return r.body.code === 50300 && r.body.data === null ? null : `admin 503 not in the envelope: ${r.text}`;
  const p = JSON.parse(r.text) as { code?: string; status?: number };
  return /^application\/problem\+json/.test(r.headers['content-type'] ?? '') && p.code === 'store-unavailable' && p.status === 503
    ? null
    : `web 503 not problem+json: ${r.text}`;
}

describe('Redis Cluster: a master killed under traffic (svc.redis.wait-replicas=1)', function () {
  this.timeout(90_000);
  let cluster: RedisCluster | undefined;
  let infra: Infrastructure | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  before(async function () {
    await requireRedisCluster(this);
    process.on('unhandledRejection', onUnhandled);
    cluster = await RedisCluster.start({ password: PASSWORD });
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await infra?.close().catch(() => undefined);
    await cluster?.stop();
  });

  it(
    "the replica takes over; requests succeed again within 10 s, only 503s in the app's format " +
      'meanwhile; every acknowledged session and logout holds',
    async () => {
      assert.ok(cluster);
      const prefix = testKeyPrefix('cluster-failover');
      const config = clusterTestConfig(cluster, {
        'svc.redis.wait-replicas': 1,
        'svc.redis.command-timeout-ms': 500,
        'svc.trusted-proxies': '127.0.0.1,::1',
        'svc.crypto.worker-threads': 1,
        // The writer logs one account in again and again; each login refused with 503 leaves its
        // place in the account's failure budget held for its 30 s lease (the write that took it
        // was not acknowledged), which would lock that account for a while: not what is measured here.
        'svc.login.max-failures': 0,
        // Its many logins of one account must all stay live (every acknowledged session holds): no cap.
        'session.max-login-count': -1,
      });
      infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix });
      const apps = buildBoth(config, infra);
      await untilReady(apps.admin.app);
      let ip = 0;
      const login = () => adminLogin(apps.admin.app)('viewer', 'viewer123', `10.30.${Math.floor(++ip / 250)}.${ip % 250}`);

      // Acknowledged before the kill: HTTP logins and logouts, and many sessions on every master.
      const tokens: Array<{ app: App; token: string }> = [];
      for (let i = 0; i < 6; i++) {
        const r = await login();
        assert.equal(r.status, 200, r.text);
        tokens.push({ app: 'admin', token: r.body.data.accessToken });
      }
      const managers = apps.admin.container.get(SessionManagers);
      for (let i = 0; i < 90; i++) {
        const app: App = i % 3 === 0 ? 'web' : 'admin';
        tokens.push({
          app,
          token: (
            await managers
              .get(app)
              .login({ userId: `f${i}`, username: `f${i}`, roles: app === 'web' ? ['member'] : ['viewer'], permissions: [] })
          ).token,
        });
      }
      const loggedOut: string[] = [];
      for (const t of tokens.splice(0, 3)) {
        await agent(apps.admin.app).post('/auth/logout').set(bearer(t.token)).expect(200);
        loggedOut.push(t.token);
      }
      const path = (app: App) => (app === 'admin' ? '/auth/me' : '/user/profile');
      const read = (t: { app: App; token: string }) => agent(apps[t.app].app).get(path(t.app)).set(bearer(t.token));

      // The master to kill, and the sessions whose slot it serves.
      const master = (await cluster.masters())[1];
      assert.ok(master);
      const keys = new RedisKeys(prefix, 'tagged');
      const slots = await cluster.slotsOf(tokens.map((t) => keys.session(t.app, hashToken(t.token))));
      const onKilled = tokens.filter((_, i) => master.slots.some(([a, b]) => (slots[i] as number) >= a && (slots[i] as number) <= b));
      assert.ok(onKilled.length >= 5, `sessions on the master to kill: ${onKilled.length}`);

      // Traffic: readers over every session, and a writer logging in and out.
      const misfits: string[] = [];
      const failures: number[] = [];
      const acked = { logins: [] as string[], logouts: [] as string[] };
      const writes = { ok: 0, failed: 0 };
      let stop = false;
      const reader = async (n: number) => {
        for (let i = n; !stop; i += 4) {
          const t = tokens[i % tokens.length] as { app: App; token: string };
          const r = await read(t);
          if (r.status !== 200) {
            failures.push(Date.now());
            const m = misfit(t.app, r);
            if (m !== null) misfits.push(m);
          }
          await sleep(10);
        }
      };
      const writer = async () => {
        while (!stop) {
          const r = await login();
          if (r.status !== 200) {
            writes.failed++;
            const m = misfit('admin', r);
            if (m !== null) misfits.push(`login: ${m}`);
            await sleep(50);
            continue;
          }
          const token = r.body.data.accessToken as string;
          // Every other acknowledged login stays; the others are logged out again (a logout refused
          // with 503 may or may not have taken effect, so only acknowledged ones are checked).
          if (writes.ok++ % 2 === 0) {
            acked.logins.push(token);
            continue;
          }
          const out = await agent(apps.admin.app).post('/auth/logout').set(bearer(token));
          if (out.status === 200) acked.logouts.push(token);
          else if (misfit('admin', out) !== null) misfits.push(`logout: ${misfit('admin', out)}`);
        }
      };
      const traffic = Promise.all([reader(0), reader(1), reader(2), reader(3), writer()]);
      await sleep(300);

      const killedAt = Date.now();
      let recoveredAt = 0;
      let writesBack = 0;
      try {
        const { killed, promoted } = await cluster.killMaster(1);
        assert.deepEqual(promoted.slots, master.slots);
        // Recovered: 20 reads in a row succeed on sessions of the lost master's slots.
        for (let streak = 0, i = 0; streak < 20 && Date.now() - killedAt < 10_000; i++) {
          const ok = (await read(onKilled[i % onKilled.length] as { app: App; token: string })).status === 200;
          if (ok && streak === 0) recoveredAt = Date.now();
          streak = ok ? streak + 1 : 0;
          if (!ok) await sleep(50);
        }
        // While the new master has no replica, acknowledged writes fail at once: no WAIT is sent to
        // block its connection (and the reads of its slots behind it) for the WAIT timeout.
        await cluster.resetNodeCommandStats(promoted.port);
        for (let i = 0; i < 3; i++) assert.equal(misfit('admin', await login()), null, 'a login without a replica: 503 in the envelope');
        const alone = await cluster.nodeCommandStats(promoted.port);
        assert.equal(alone.wait ?? 0, 0, `no WAIT on a master without a replica: ${JSON.stringify(alone)}`);
        // The killed node comes back as the new master's replica: acknowledged writes succeed again.
        const restartedAt = Date.now();
        await cluster.restart(killed.port);
        await cluster.waitUntilHealthy();
        const okBefore = writes.ok;
        while (writes.ok === okBefore && Date.now() - restartedAt < 10_000) await sleep(50);
        writesBack = writes.ok > okBefore ? Date.now() - restartedAt : -1;
        await sleep(300);
      } finally {
        stop = true;
        await traffic;
      }

      const lastFailure = failures.length === 0 ? killedAt : Math.max(...failures);
      console.log(
        `      failover: reads back after ${recoveredAt - killedAt} ms (last failed read ` +
          `${lastFailure - killedAt} ms after the kill, ${failures.length} failed reads); ` +
          (`acknowledged writes back ${writesBack} ms after the node's restart; ${writes.ok} logins ` +
            `and ${acked.logouts.length} logouts acknowledged, ${writes.failed} logins refused`),
      );
      assert.ok(
        recoveredAt > 0 && recoveredAt - killedAt < 10_000,
        `reads on the lost master's slots did not succeed again within 10 s (${failures.length} failures)`,
      );
      assert.ok(lastFailure - killedAt < 10_000, `reads failed for ${lastFailure - killedAt} ms`);
      assert.ok(writesBack >= 0, 'acknowledged writes succeed again once the master has a replica');
      assert.deepEqual(misfits, [], "every failure is a 503 in the app's format");
      assert.deepEqual(unhandled, [], 'no unhandled rejection');

      for (const t of tokens) assert.equal((await read(t)).status, 200, `a session acknowledged before the kill (${t.app})`);
      for (const t of loggedOut) await agent(apps.admin.app).get('/auth/me').set(bearer(t)).expect(401);
      for (const t of acked.logins) await agent(apps.admin.app).get('/auth/me').set(bearer(t)).expect(200);
      for (const t of acked.logouts) await agent(apps.admin.app).get('/auth/me').set(bearer(t)).expect(401);
    },
  );
});
