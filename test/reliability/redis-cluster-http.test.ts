/**
 * Both apps on a real Redis Cluster (3 masters, 3 replicas, started once for the file), configured
 * as an operator does it (SVC_REDIS_MODE=cluster, SVC_REDIS_NODES=...), driven over HTTP: admin
 * login, /auth/me, refresh rotation and reuse revocation, logout, kickout from /monitor/online;
 * web register, login, sessions, logout-all; a signed request and its replay; 50 concurrent
 * duplicates per idempotency mode; the login rate limit; the keys spread over every master. Then
 * a live reshard of 1,200 slots with traffic running: no request fails (MOVED / ASK / TRYAGAIN
 * are the client's business). Skipped loudly without redis-server / redis-cli (fails under CI=true).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type request from 'supertest';
import { LOGIN_RATE_LIMIT } from '../../src/adapters/koa/routes/auth-routes';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { AppConfig, ConfigKey } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth, clusterTestConfig } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { adminLogin, agent, bearer, signedHeaders, untilReady } from '../support/flows';
import { ask } from '../support/redis-processes';
import { RedisCluster, requireRedisCluster } from '../support/redis-cluster';
import { testKeyPrefix } from '../support/services';

const PASSWORD = 'cluster-http-pw';
const SIGN_APP = 'partner';
const SIGN_SECRET = 'cluster-test-secret-0123456789';

/** A web error: RFC 9457 problem+json with this status and reason. */
function problem(res: request.Response, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  assert.equal(JSON.parse(res.text).code, code);
}

describe('both apps on a Redis Cluster over HTTP (svc.redis.mode=cluster)', function () {
  this.timeout(60_000);
  let cluster: RedisCluster | undefined;
  const opened: Infrastructure[] = [];
  /** The main apps' clock (moved past the refresh reuse grace), set when the suite starts. */
  let clock = new FakeClock(0);
  let prefix = '';
  let apps: ReturnType<typeof buildBoth>;

  function start(overrides: Partial<Record<ConfigKey, unknown>> = {}, withClock?: FakeClock) {
    assert.ok(cluster);
    const config: AppConfig = clusterTestConfig(cluster, {
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.security.sign.apps': { [SIGN_APP]: SIGN_SECRET },
      'svc.crypto.worker-threads': 1,
      ...overrides,
    });
    assert.equal(config.redis.mode, 'cluster');
    const infra = createInfrastructure(config, { log: silentLogger, keyPrefix: prefix, ...(withClock ? { clock: withClock } : {}) });
    opened.push(infra);
    return buildBoth(config, infra);
  }

  before(async function () {
    await requireRedisCluster(this);
    cluster = await RedisCluster.start({ password: PASSWORD });
    prefix = testKeyPrefix('cluster-http');
    clock = new FakeClock(Date.now());
    apps = start({}, clock);
    await untilReady(apps.admin.app);
    await untilReady(apps.web.app);
  });
  after(async () => {
    for (const infra of opened) await infra.close().catch(() => undefined);
    await cluster?.stop();
  });

  const admin = () => agent(apps.admin.app);
  const web = () => agent(apps.web.app);
  let ipSeq = 0;
  const nextIp = () => `10.20.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
  const login = (username: string, password: string, ip = nextIp()) => adminLogin(apps.admin.app)(username, password, ip);

  it('admin: login -> /auth/me -> refresh rotates -> reuse of the old refresh token revokes the family -> logout', async () => {
    const first = await login('admin', 'admin123');
    assert.equal(first.status, 200, first.text);
    const d = first.body.data;
    assert.equal((await admin().get('/auth/me').set(bearer(d.accessToken)).expect(200)).body.data.username, 'admin');
    const r1 = (await admin().post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(200)).body.data;
    assert.equal(
      (await admin().get('/auth/me').set(bearer(d.accessToken)).expect(401)).body.code !== 0,
      true,
      'the rotated-out access token is dead',
    );
    await admin().get('/auth/me').set(bearer(r1.accessToken)).expect(200);
    clock.advance(3_000); // past the grace of a concurrent duplicate: now it is reuse
    await admin().post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(401);
    await admin().get('/auth/me').set(bearer(r1.accessToken)).expect(401);
    await admin().post('/auth/refresh-token').send({ refreshToken: r1.refreshToken }).expect(401);

    const again = (await login('admin', 'admin123')).body.data;
    await admin().post('/auth/logout').set(bearer(again.accessToken)).expect(200);
    await admin().get('/auth/me').set(bearer(again.accessToken)).expect(401);
    await admin().post('/auth/refresh-token').send({ refreshToken: again.refreshToken }).expect(401);
  });

  it('admin: kickout from /monitor/online (the online index merged from its buckets on every master)', async () => {
    const boss = (await login('admin', 'admin123')).body.data;
    const viewers: Array<{ ip: string; accessToken: string; refreshToken: string }> = [];
    for (let i = 0; i < 4; i++) {
      const ip = nextIp();
      viewers.push({ ip, ...(await login('viewer', 'viewer123', ip)).body.data });
    }
    const [other, victim] = [viewers[0], viewers[3]];
    assert.ok(other && victim);
    const online = (await admin().get('/monitor/online').set(bearer(boss.accessToken)).expect(200)).body.data.list as Array<
      Record<string, string>
    >;
    for (const v of viewers)
      assert.ok(
        online.some((s) => s.ipaddr === v.ip && s.username === 'viewer'),
        `${v.ip} listed: ${JSON.stringify(online)}`,
      );
    const entry = online.find((s) => s.ipaddr === victim.ip);
    assert.ok(entry);
    await admin().delete(`/monitor/online/${entry.tokenId}`).set(bearer(boss.accessToken)).expect(200);
    assert.equal((await admin().get('/auth/me').set(bearer(victim.accessToken)).expect(401)).body.code, 40105, 'kicked out');
    await admin().post('/auth/refresh-token').send({ refreshToken: victim.refreshToken }).expect(401);
    await admin().get('/auth/me').set(bearer(other.accessToken)).expect(200);
    await admin().delete(`/monitor/online/${entry.tokenId}`).set(bearer(boss.accessToken)).expect(404);
  });

  it('web: register -> two logins -> sessions -> end one -> logout-all', async () => {
    const name = `carol.${randomUUID().slice(0, 8)}`;
    await web()
      .post('/auth/register')
      .set('X-Forwarded-For', nextIp())
      .send({ username: name, password: 'carol-pass-123', nickname: 'Carol' })
      .expect(201);
    const webLogin = (ua: string) =>
      web()
        .post('/auth/login')
        .set('X-Forwarded-For', nextIp())
        .set('User-Agent', ua)
        .send({ username: name, password: 'carol-pass-123' })
        .expect(200);
    const phone = (await webLogin('phone')).body;
    clock.advance(1000);
    const laptop = (await webLogin('laptop')).body;
    assert.equal((await web().get('/user/profile').set(bearer(phone.accessToken)).expect(200)).body.username, name);
    const list = (await web().get('/user/sessions').set(bearer(laptop.accessToken)).expect(200)).body as Array<{
      tokenId: string;
      userAgent: string;
      current: boolean;
    }>;
    assert.deepEqual(
      list.map((s) => [s.userAgent, s.current]),
      [
        ['phone', false],
        ['laptop', true],
      ],
    );
    await web().delete(`/user/sessions/${list[0]?.tokenId}`).set(bearer(laptop.accessToken)).expect(204);
    problem(await web().get('/user/profile').set(bearer(phone.accessToken)), 401, 'token-invalid');
    problem(await web().post('/auth/refresh-token').send({ refreshToken: phone.refreshToken }), 401, 'refresh-token-invalid');
    const tablet = (await webLogin('tablet')).body;
    assert.deepEqual((await web().post('/user/logout-all').set(bearer(tablet.accessToken)).expect(200)).body, { endedSessions: 2 });
    for (const t of [laptop.accessToken, tablet.accessToken])
      problem(await web().get('/user/profile').set(bearer(t)), 401, 'token-invalid');
    for (const r of [laptop.refreshToken, tablet.refreshToken])
      assert.equal((await web().post('/auth/refresh-token').send({ refreshToken: r })).status, 401);
  });

  it('a signed request is accepted once; its replay is refused on either app', async () => {
    const body = JSON.stringify({ pay: 1 });
    for (const [which, replayed] of [
      ['admin', (r: request.Response) => assert.equal(r.body.code, 40123, r.text)],
      ['web', (r: request.Response) => problem(r, 401, 'sign-nonce-replayed')],
    ] as const) {
      const headers = signedHeaders(SIGN_APP, SIGN_SECRET, body);
      const app = which === 'admin' ? admin : web;
      await app().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body).expect(200);
      replayed(await app().post('/open/echo').set(headers).set('Content-Type', 'application/json').send(body));
    }
  });

  it('50 concurrent duplicates: TOKEN, PARAM and HEADER each accept exactly one', async () => {
    const sessions = apps.web.container.get(SessionManagers);
    const member = async () =>
      bearer((await sessions.get('web').login({ userId: `m-${randomUUID()}`, username: 'm', roles: ['member'], permissions: [] })).token);
    const boss = bearer(
      (await sessions.get('admin').login({ userId: `a-${randomUUID()}`, username: 'a', roles: ['admin'], permissions: ['*:*:*'] })).token,
    );
    const fifty = (send: () => request.Test) => Promise.all(Array.from({ length: 50 }, send));

    const auth = await member();
    const token = (await web().get('/idempotent/token').expect(200)).body.token as string;
    const orders = await fifty(() => web().post('/orders').set(auth).set('X-Idempotent-Token', token).send({ item: 'book', quantity: 1 }));
    assert.equal(orders.filter((r) => r.status === 201).length, 1, orders.map((r) => r.status).join());
    for (const r of orders.filter((x) => x.status !== 201)) problem(r, 409, 'idempotency-token-invalid');

    const notices = await fifty(() => admin().post('/examples/notices').set(boss).send({ title: 'Maintenance tonight' }));
    assert.equal(notices.filter((r) => r.status === 201).length, 1, notices.map((r) => r.status).join());
    for (const r of notices.filter((x) => x.status !== 201)) assert.deepEqual([r.status, r.body.code], [409, 40910]);

    const payer = await member();
    const key = randomUUID();
    const payments = await fifty(() =>
      web().post('/payments').set(payer).set('Idempotency-Key', key).send({ amount: 1999, currency: 'EUR' }),
    );
    assert.equal(payments.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true').length, 1, 'one execution');
    for (const r of payments.filter((x) => x.status !== 201)) problem(r, 409, 'idempotency-in-progress');
    assert.equal((await web().get('/payments').set(payer).expect(200)).body.length, 1);
  });

  it(
    `${LOGIN_RATE_LIMIT.limit * 4} concurrent logins from one IP: exactly ` +
      `${LOGIN_RATE_LIMIT.limit} are let through (the login limit), the rest 429`,
    async () => {
      const ip = nextIp();
      const results = await Promise.all(Array.from({ length: LOGIN_RATE_LIMIT.limit * 4 }, () => login('admin', 'admin123', ip)));
      const statuses = results.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, LOGIN_RATE_LIMIT.limit, statuses.join());
      assert.equal(statuses.filter((s) => s === 429).length, LOGIN_RATE_LIMIT.limit * 3, statuses.join());
      for (const r of results.filter((x) => x.status === 429)) assert.equal(r.body.code, 42900);
    },
  );

  it("the service's keys are spread over every master", async () => {
    assert.ok(cluster);
    const perMaster = await cluster.keysPerMaster(prefix);
    assert.equal(perMaster.size, 3);
    assert.ok(
      [...perMaster.values()].every((n) => n > 0),
      `keys per master: ${JSON.stringify([...perMaster])}`,
    );
  });

  it(
    'a live reshard of 1,200 slots with logins, authenticated requests (idle timeout on: each ' +
      'one writes) and signed requests running: 0 errors',
    async () => {
      assert.ok(cluster);
      const touched = start({ 'session.active-timeout': 1800 });
      const managers = touched.admin.container.get(SessionManagers).get('admin');
      const tokens: string[] = [];
      for (let i = 0; i < 400; i++)
        tokens.push((await managers.login({ userId: `r${i}`, username: `r${i}`, roles: ['viewer'], permissions: [] })).token);
      const [from, to] = await cluster.masters();
      assert.ok(from && to);
      const errors: string[] = [];
      const counts = { me: 0, signed: 0, login: 0 };
      let stop = false;
      const check = (what: keyof typeof counts, r: request.Response) => {
        counts[what]++;
        if (r.status !== 200) errors.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
      };
      const worker = async (n: number) => {
        for (let i = n; !stop; i++) {
          check(
            'me',
            await agent(touched.admin.app)
              .get('/auth/me')
              .set(bearer(tokens[(i * 7) % tokens.length] as string)),
          );
          if (i % 5 === 0) {
            const body = JSON.stringify({ i });
            check(
              'signed',
              await agent(touched.web.app)
                .post('/open/echo')
                .set(signedHeaders(SIGN_APP, SIGN_SECRET, body))
                .set('Content-Type', 'application/json')
                .send(body),
            );
          }
          if (n === 0 && i % 40 === 0) check('login', await adminLogin(touched.admin.app)('viewer', 'viewer123', nextIp()));
        }
      };
      const traffic = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
      await new Promise((r) => setTimeout(r, 200));
      try {
        await cluster.reshard(from, to, 1200);
      } finally {
        stop = true;
        await traffic;
      }
      const after = await cluster.masters();
      const left = new Set(slotList(after.find((m) => m.id === from.id)?.slots ?? []));
      const moved = slotList(from.slots).filter((slot) => !left.has(slot));
      assert.equal(moved.length, 1200, 'redis-cli moved the slots');
      const now = new Set(slotList(after.find((m) => m.id === to.id)?.slots ?? []));
      assert.ok(
        moved.every((slot) => now.has(slot)),
        'to the master named',
      );
      const keysMoved = (await keysInSlots(cluster, to.port, moved)).filter((k) => k.startsWith(prefix)).length;
      console.log(
        `      reshard: 1200 slots holding ${keysMoved} of the service's keys moved; ` +
          `${JSON.stringify(counts)} requests meanwhile, ${errors.length} errors`,
      );
      assert.ok(keysMoved > 0, "the moved slots held some of the service's keys");
      assert.ok(counts.me > 100, `traffic ran during the reshard: ${JSON.stringify(counts)}`);
      assert.deepEqual(errors, []);
      for (const t of tokens) await agent(touched.admin.app).get('/auth/me').set(bearer(t)).expect(200);
    },
  );
});

/** Every slot of some ranges. */
const slotList = (ranges: ReadonlyArray<readonly [number, number]>): number[] =>
  ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));

/** The keys a master holds in these slots (CLUSTER GETKEYSINSLOT each; a test cluster holds few). */
function keysInSlots(cluster: RedisCluster, port: number, slots: readonly number[]): Promise<string[]> {
  return ask(port, cluster.password, async (r) =>
    (await Promise.all(slots.map((s) => r.call('CLUSTER', 'GETKEYSINSLOT', s, 1000) as Promise<string[]>))).flat(),
  );
}
