/**
 * GET /monitor/online on both stores: the page shape {list, total, totalExact, page, size}, paging
 * oldest first, the username filter (any case, through the user's index) and the IP filter, the
 * device columns read once at login and kept on the session (never parsed by a listing), and the
 * route's 400/401/403.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { Principal } from '../../src/domain/session';
import { SessionManagers } from '../../src/application/session/session-manager';
import type { BuiltApp } from '../../src/main/operations';
import { buildBoth, STORE_KINDS, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { bearer, encryptPassword } from '../support/flows';
import { requireRedis } from '../support/services';

const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

interface Row {
  tokenId: string;
  userId: string;
  username: string;
  loginType: string;
  loginTime: string;
  lastActiveTime: string;
  ipaddr: string;
  os: string;
  browser: string;
  deviceType: string;
}

for (const kind of STORE_KINDS) {
  describe(`GET /monitor/online (${kind} store)`, function () {
    this.timeout(30_000);
    let infra: TestInfra;
    let admin: BuiltApp;
    let root: string;
    /** Logins a second apart, so that their order is their login order on every store (ties go by token hash on Redis). */
    let clock: FakeClock;
    const http = () => request(admin.app.callback());
    const manager = () => admin.container.get(SessionManagers).get('admin');
    const principal = (userId: string, username: string, permissions: string[] = []): Principal => ({
      userId,
      username,
      roles: [],
      permissions,
    });
    const online = async (query: Record<string, string | number> = {}) => {
      const r = await http().get('/monitor/online').query(query).set(bearer(root));
      assert.equal(r.status, 200, r.text);
      return r.body.data as { list: Row[]; total: number; totalExact: boolean; page: number; size: number };
    };
    const loginWith = async (username: string, password: string, ip: string, userAgent: string) => {
      const key = (await http().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      const r = await http()
        .post('/auth/login')
        .set('X-Forwarded-For', ip)
        .set('User-Agent', userAgent)
        .send({ username, password: encryptPassword(key, password) });
      assert.equal(r.status, 200, r.text);
      return r.body.data.accessToken as string;
    };

    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.time-zone': 'UTC', 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 1 }, kind);
      clock = new FakeClock(Date.now());
      infra = testInfra(config, { label: 'online', clock });
      ({ admin } = buildBoth(config, infra));
      root = (await manager().login(principal('1', 'admin', ['*:*:*']), { ip: '10.0.0.1' })).token;
    });
    afterEach(async () => infra?.dispose());

    it('a login keeps OS, browser and device type on its session; the list shows them without parsing again', async () => {
      await loginWith('viewer', 'viewer123', '192.0.2.10', SAFARI);
      clock.advance(1000);
      await loginWith('viewer', 'viewer123', '192.0.2.11', ANDROID);
      const rows = (await online({ username: 'viewer' })).list;
      assert.deepEqual(
        rows.map((r) => [r.ipaddr, r.os, r.browser, r.deviceType, r.loginType]),
        [
          ['192.0.2.10', 'macOS Sonoma', 'Safari 17', 'PC', 'admin'],
          ['192.0.2.11', 'Android 14', 'Chrome 126', 'H5', 'admin'],
        ],
      );
      const hash = (await manager().listSessions('2'))[0]?.tokenHash;
      const stored = await manager().stateOf(hash as string);
      assert.equal(stored?.state === 'active' && stored.record.client.os, 'macOS Sonoma', 'kept on the session record');
      // A session whose kept names disagree with its User-Agent lists the kept names: the listing reads, never parses.
      await manager().login(principal('7', 'kept'), {
        ip: '192.0.2.12',
        userAgent: SAFARI,
        os: 'KeptOS',
        browser: 'KeptBrowser 1',
        deviceType: 'tv',
      });
      const kept = (await online({ ip: '192.0.2.12' })).list[0];
      assert.deepEqual([kept?.os, kept?.browser, kept?.deviceType], ['KeptOS', 'KeptBrowser 1', 'tv']);
      await manager().login(principal('8', 'older'), { ip: '192.0.2.13', userAgent: SAFARI });
      const older = (await online({ ip: '192.0.2.13' })).list[0];
      // Without the names (written past the login's User-Agent reading), the OS and browser are unknown; a device type the
      // session core always records (Sa-Token's default DEF when none was given).
      assert.deepEqual([older?.os, older?.browser, older?.deviceType], ['unknown', 'unknown', 'DEF'], 'a session from before');
    });

    it('pages oldest first with an exact total; filters by username (any case) and by ip; rows carry the times', async () => {
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        await manager().login(principal(`u${i}`, `user${i}`), { ip: i % 2 === 0 ? '198.51.100.2' : '198.51.100.3' });
      }
      const first = await online({ page: 1, size: 2 });
      assert.deepEqual([first.total, first.totalExact, first.page, first.size, first.list.length], [6, true, 1, 2, 2]);
      assert.equal(first.list[0]?.username, 'admin', 'oldest first');
      const all = [...first.list, ...(await online({ page: 2, size: 2 })).list, ...(await online({ page: 3, size: 2 })).list];
      assert.deepEqual(
        all.map((r) => r.username),
        ['admin', 'user0', 'user1', 'user2', 'user3', 'user4'],
      );
      assert.equal(new Set(all.map((r) => r.tokenId)).size, 6);
      for (const r of all) assert.ok(DATE.test(r.loginTime) && DATE.test(r.lastActiveTime), JSON.stringify(r));
      assert.deepEqual((await online({ page: 4, size: 2 })).list, []);
      // The username filter finds the account in the directory (any case), then reads that user's own index.
      await manager().login(principal('2', 'viewer'), { ip: '198.51.100.9' });
      const mine = await online({ username: 'VIEWER' });
      assert.deepEqual(
        [mine.total, mine.totalExact, mine.list.map((r) => [r.username, r.ipaddr])],
        [1, true, [['viewer', '198.51.100.9']]],
      );
      assert.deepEqual((await online({ username: 'nobody-here' })).list, []);
      const byIp = await online({ ip: '198.51.100.2', size: 2 });
      assert.deepEqual([byIp.total, byIp.totalExact, byIp.list.map((r) => r.username)], [3, true, ['user0', 'user2']]);
      assert.deepEqual(
        (await online({ ip: '198.51.100.2', size: 2, page: 2 })).list.map((r) => r.username),
        ['user4'],
      );
      assert.deepEqual((await online({ username: 'viewer', ip: '198.51.100.2' })).list, [], 'both filters apply');
    });

    it('filters by device type (exact; DEF: the sessions without one), alone and with the other filters', async () => {
      for (const [id, name, ip, deviceType] of [
        ['2', 'viewer', '198.51.100.4', 'APP'],
        ['2', 'viewer', '198.51.100.4', 'PC'],
        ['4', 'bot', '198.51.100.5', 'APP'],
      ] as const) {
        clock.advance(1000); // a login time of its own: the list is in login order
        await manager().login(principal(id, name), { ip, deviceType });
      }
      const apps = await online({ deviceType: 'APP' });
      assert.deepEqual([apps.total, apps.totalExact, apps.list.map((r) => r.username)], [2, true, ['viewer', 'bot']]);
      assert.deepEqual(
        (await online({ deviceType: 'APP', ip: '198.51.100.5' })).list.map((r) => r.username),
        ['bot'],
      );
      const viewerPc = (await online({ deviceType: 'PC', username: 'VIEWER' })).list;
      assert.deepEqual(
        viewerPc.map((r) => [r.username, r.deviceType]),
        [['viewer', 'PC']],
      );
      assert.deepEqual((await online({ deviceType: 'H5', username: 'viewer' })).list, []);
      assert.deepEqual(
        (await online({ deviceType: 'DEF' })).list.map((r) => r.username),
        ['admin'],
        "the test's own session, given none",
      );
      assert.deepEqual((await online({ deviceType: 'app' })).list, [], 'exact, case included');
    });

    it('refuses: 400 for a bad page or size, or a page past 10,000 deep; 401 without a token; 403 without the permission', async () => {
      for (const bad of [
        { page: 0 },
        { size: 0 },
        { size: 501 },
        { page: 101, size: 100 },
        { page: 'x' },
        { ip: '' },
        { deviceType: 'P C' },
      ]) {
        const r = await http().get('/monitor/online').query(bad).set(bearer(root));
        assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
        assert.equal(r.body.code, 40000);
      }
      assert.equal((await http().get('/monitor/online').query({ page: 100, size: 100 }).set(bearer(root))).status, 200);
      await http().get('/monitor/online').expect(401);
      const nobody = (await manager().login(principal('9', 'nobody'))).token;
      assert.equal((await http().get('/monitor/online').set(bearer(nobody)).expect(403)).body.code, 40300);
    });
  });
}
