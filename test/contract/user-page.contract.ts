/**
 * SessionStore.listUserPage, one user's sessions by page, in the session-store contract (every adapter):
 * order, paging, exact total, the device-type filter, and that ended or expired sessions are not counted.
 */
import assert from 'node:assert/strict';
import type { SessionStore, UserSessionQuery } from '../../src/application/ports/session-store';
import type { StoreFixture } from './fixture';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;

export function describeUserPageContract(fx: () => StoreFixture<SessionStore>): void {
  describe('listUserPage (one user, by page)', () => {
    async function login(userId: string, createdAt: number, deviceType?: string, expiresAt?: number): Promise<string> {
      const { store, clock } = fx();
      const hash = newHash();
      const record = makeRecord({
        userId,
        createdAt,
        ...(deviceType !== undefined ? { deviceType } : {}),
        ...(expiresAt ? { expiresAt } : {}),
      });
      await store.create({
        loginType: 'admin',
        tokenHash: hash,
        record,
        retentionMs: 2 * HOUR,
        admission: { kind: 'add' },
        now: clock.now(),
      });
      return hash;
    }
    const page = async (userId: string, now: number, q: Partial<UserSessionQuery> = {}) => {
      const got = await fx().store.listUserPage('admin', userId, now, { offset: 0, limit: 10, ...q });
      return { hashes: got.sessions.map((s) => s.tokenHash), total: got.total };
    };

    it('pages oldest first with an exact total; other users and login types are apart', async () => {
      const t0 = fx().clock.now();
      const made: string[] = [];
      for (const i of [3, 0, 4, 1, 2]) made[i] = await login('pager', t0 + i * 10);
      await login('someone-else', t0);
      const now = t0 + 100;
      assert.deepEqual(await page('pager', now, { limit: 2 }), { hashes: made.slice(0, 2), total: 5 });
      assert.deepEqual(await page('pager', now, { offset: 2, limit: 2 }), { hashes: made.slice(2, 4), total: 5 });
      assert.deepEqual(await page('pager', now, { offset: 4, limit: 2 }), { hashes: made.slice(4), total: 5 });
      assert.deepEqual(await page('pager', now, { offset: 9 }), { hashes: [], total: 5 });
      assert.deepEqual(await page('nobody', now), { hashes: [], total: 0 });
    });

    it('filters by device type (DEF also matches sessions without one) and counts what matches', async () => {
      const t0 = fx().clock.now();
      const pc = await login('dev', t0, 'PC');
      const app = await login('dev', t0 + 1, 'APP');
      const none = await login('dev', t0 + 2);
      const pc2 = await login('dev', t0 + 3, 'PC');
      assert.deepEqual(await page('dev', t0 + 10, { deviceType: 'PC' }), { hashes: [pc, pc2], total: 2 });
      assert.deepEqual(await page('dev', t0 + 10, { deviceType: 'APP' }), { hashes: [app], total: 1 });
      assert.deepEqual(await page('dev', t0 + 10, { deviceType: 'DEF' }), { hashes: [none], total: 1 });
    });

    it('leaves out ended and expired sessions, in the page and in the total', async () => {
      const { store, clock } = fx();
      const t0 = clock.now();
      const a = await login('ends', t0);
      const b = await login('ends', t0 + 1, undefined, t0 + 50);
      const c = await login('ends', t0 + 2);
      const d = await login('ends', t0 + 3);
      await store.mark('admin', [a], 'kicked-out');
      await store.deleteSession('admin', c);
      assert.deepEqual(await page('ends', t0 + 100), { hashes: [d], total: 1 });
      assert.ok(b);
    });
  });
}
