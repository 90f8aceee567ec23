/**
 * SessionStore.listPage, the online list's page, in the session-store contract (run on every adapter
 * that runs it: memory, Redis standalone, the tagged layout, Sentinel, the cluster, the session cache):
 * order, paging, what is pruned and skipped, the IP filter and its scan bound, and what `total` is.
 */
import assert from 'node:assert/strict';
import type { OnlineQuery, SessionStore } from '../../src/application/ports/session-store';
import type { LoginType } from '../../src/domain/login-type';
import type { StoreFixture } from './fixture';
import { randomBytes } from 'node:crypto';
import type { SessionRecord } from '../../src/domain/session';

const HOUR = 3_600_000;

function recordOf(
  loginType: LoginType,
  userId: string,
  createdAt: number,
  expiresAt: number,
  ip: string,
  deviceType?: string,
  /** What the release before device types kept under client.deviceType: the User-Agent's platform, no device type. */
  platform?: string,
): SessionRecord {
  return {
    v: 1,
    loginType,
    tokenId: randomBytes(8).toString('hex'),
    createdAt,
    expiresAt,
    principal: { userId, username: userId, roles: [], permissions: [] },
    client: {
      ip,
      userAgent: 'test',
      os: 'Linux',
      browser: 'Firefox 128',
      ...((deviceType ?? platform) !== undefined ? { deviceType: deviceType ?? platform } : {}),
    },
    ...(deviceType !== undefined ? { deviceType } : {}),
    attrs: {},
  };
}

export function describeOnlinePageContract(fx: () => StoreFixture<SessionStore>): void {
  describe('listPage (the online list)', () => {
    /** A session created at `createdAt` (default: now), from `ip`. */
    async function login(
      opts: {
        createdAt?: number;
        expiresAt?: number;
        ip?: string;
        userId?: string;
        loginType?: LoginType;
        deviceType?: string;
        platform?: string;
      } = {},
    ) {
      const { store, clock } = fx();
      const hash = randomBytes(32).toString('hex');
      const createdAt = opts.createdAt ?? clock.now();
      const user = opts.userId ?? `u-${hash.slice(0, 6)}`;
      const expiresAt = opts.expiresAt ?? createdAt + HOUR;
      const record = recordOf(
        opts.loginType ?? 'admin',
        user,
        createdAt,
        expiresAt,
        opts.ip ?? '203.0.113.7',
        opts.deviceType,
        opts.platform,
      );
      await store.create({
        loginType: record.loginType,
        tokenHash: hash,
        record,
        retentionMs: 2 * HOUR,
        admission: { kind: 'add' },
        now: clock.now(),
      });
      return hash;
    }
    const page = (now: number, q: Partial<OnlineQuery> = {}) =>
      fx().store.listPage('admin', now, { offset: 0, limit: 10, scanLimit: 10_000, exactCountUpTo: 1_000, ...q });
    const hashes = async (now: number, q: Partial<OnlineQuery> = {}) => (await page(now, q)).sessions.map((s) => s.tokenHash);

    it('pages oldest first by offset and limit; a small index counts exactly; another login type is apart', async () => {
      const t0 = fx().clock.now();
      const made: string[] = [];
      for (const i of [4, 0, 6, 2, 5, 1, 3]) made[i] = await login({ createdAt: t0 + i * 10 });
      await login({ loginType: 'web' });
      const now = t0 + 100;
      assert.deepEqual(await hashes(now, { limit: 3 }), made.slice(0, 3));
      assert.deepEqual(await hashes(now, { offset: 3, limit: 3 }), made.slice(3, 6));
      const last = await page(now, { offset: 6, limit: 3 });
      assert.deepEqual(
        last.sessions.map((s) => s.tokenHash),
        made.slice(6),
      );
      assert.deepEqual([last.total, last.totalExact], [7, true]);
      assert.deepEqual(await hashes(now, { offset: 7 }), []);
      const listed = (await page(now, { limit: 1 })).sessions[0];
      assert.deepEqual(listed?.record.client, { ip: '203.0.113.7', userAgent: 'test', os: 'Linux', browser: 'Firefox 128' });
      assert.equal(listed?.lastActiveAt, fx().clock.now());
    });

    it('an empty index: no sessions, total 0, exact', async () => {
      assert.deepEqual(await page(fx().clock.now()), { sessions: [], total: 0, totalExact: true });
    });

    it('past exactCountUpTo, total is the index size (not exact); the page is the same', async () => {
      const t0 = fx().clock.now();
      const made = [await login({ createdAt: t0 }), await login({ createdAt: t0 + 1 }), await login({ createdAt: t0 + 2 })];
      const big = await page(t0 + 10, { limit: 2, exactCountUpTo: 2 });
      assert.deepEqual(
        big.sessions.map((s) => s.tokenHash),
        made.slice(0, 2),
      );
      assert.deepEqual([big.total, big.totalExact], [3, false]);
    });

    it('skips and prunes ended and expired sessions, fills the page past them, and counts only the live', async () => {
      const { store } = fx();
      const t0 = fx().clock.now();
      await login({ createdAt: t0, expiresAt: t0 + 1_000 });
      const deleted = await login({ createdAt: t0 + 1 });
      const kicked = await login({ createdAt: t0 + 2 });
      const live = [await login({ createdAt: t0 + 3 }), await login({ createdAt: t0 + 4 }), await login({ createdAt: t0 + 5 })];
      await store.deleteSession('admin', deleted);
      await store.mark('admin', [kicked], 'kicked-out');
      const now = t0 + 2_000;
      const first = await page(now, { limit: 2, exactCountUpTo: 0 });
      assert.deepEqual(
        first.sessions.map((s) => s.tokenHash),
        live.slice(0, 2),
      );
      assert.deepEqual([first.total, first.totalExact], [3, false], 'the expired entry met was pruned');
      assert.deepEqual(await hashes(now, { offset: 2, limit: 2, exactCountUpTo: 0 }), live.slice(2));
      const exact = await page(now);
      assert.deepEqual([exact.total, exact.totalExact], [3, true]);
    });

    it('paging on from the first page lists every live session once, in order, with expired ones between them', async () => {
      const t0 = fx().clock.now();
      const live: string[] = [];
      for (let i = 0; i < 12; i++) {
        if (i % 3 === 1) live.push(await login({ createdAt: t0 + i }));
        else await login({ createdAt: t0 + i, expiresAt: t0 + 500 });
      }
      const seen: string[] = [];
      for (let offset = 0; offset < 20; offset += 2) seen.push(...(await hashes(t0 + 1_000, { offset, limit: 2, exactCountUpTo: 0 })));
      assert.deepEqual(seen, live);
    });

    it('an IP filter: only that IP (exact), counted exactly, paged within the matches; scanLimit bounds the scan', async () => {
      const t0 = fx().clock.now();
      const a: string[] = [];
      for (let i = 0; i < 6; i++) {
        const ip = i % 2 === 0 ? '198.51.100.1' : '198.51.100.12';
        const h = await login({ createdAt: t0 + i, ip });
        if (ip === '198.51.100.1') a.push(h);
      }
      const now = t0 + 100;
      const all = await page(now, { ip: '198.51.100.1', limit: 2 });
      assert.deepEqual(
        all.sessions.map((s) => s.tokenHash),
        a.slice(0, 2),
      );
      assert.deepEqual([all.total, all.totalExact], [3, true]);
      assert.deepEqual(await hashes(now, { ip: '198.51.100.1', offset: 2, limit: 2 }), a.slice(2));
      assert.deepEqual(await hashes(now, { ip: '198.51.100.9' }), []);
      const bounded = await page(now, { ip: '198.51.100.1', scanLimit: 3 });
      assert.deepEqual(
        bounded.sessions.map((s) => s.tokenHash),
        a.slice(0, 2),
      );
      assert.deepEqual([bounded.total, bounded.totalExact], [2, false], 'a lower bound: the scan stopped after 3 entries');
    });

    it('a device-type filter: only that type (exact; DEF also a session without one), alone or with an IP filter', async () => {
      const t0 = fx().clock.now();
      const pc = await login({ createdAt: t0, deviceType: 'PC' });
      const app = await login({ createdAt: t0 + 1, deviceType: 'APP', ip: '198.51.100.1' });
      const none = await login({ createdAt: t0 + 2 });
      const pc2 = await login({ createdAt: t0 + 3, deviceType: 'PC', ip: '198.51.100.1' });
      await login({ createdAt: t0 + 4, deviceType: 'pc' });
      const legacy = await login({ createdAt: t0 + 5, platform: 'desktop' });
      const now = t0 + 100;
      const pcs = await page(now, { deviceType: 'PC' });
      assert.deepEqual(
        pcs.sessions.map((s) => s.tokenHash),
        [pc, pc2],
      );
      assert.deepEqual([pcs.total, pcs.totalExact], [2, true]);
      assert.deepEqual(await hashes(now, { deviceType: 'APP' }), [app]);
      assert.deepEqual(await hashes(now, { deviceType: 'DEF' }), [none, legacy], 'a record of the release before device types is DEF');
      assert.deepEqual(await hashes(now, { deviceType: 'desktop' }), [], "that release's User-Agent platform is no device type");
      assert.deepEqual(await hashes(now, { deviceType: 'PC', ip: '198.51.100.1' }), [pc2]);
      assert.deepEqual(await hashes(now, { deviceType: 'H5' }), []);
    });
  });
}
