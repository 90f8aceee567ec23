/**
 * SessionStore.patch in the session-store contract (run on every adapter: memory, Redis standalone, the tagged
 * layout, Sentinel, the cluster, the session cache): the patch is applied to the record as stored at the write, so
 * what another writer changed since the caller's read (a role change) stays; retention, last-active time and index
 * entries stay; a session that is not active is not patched.
 */
import assert from 'node:assert/strict';
import type { SessionStore } from '../../src/application/ports/session-store';
import type { SessionRecord } from '../../src/domain/session';
import type { StoreFixture } from './fixture';
import { makeRecord, newHash } from './session-store.contract';

const HOUR = 3_600_000;

export function describeSessionPatchContract(fx: () => StoreFixture<SessionStore>): void {
  describe('patch', () => {
    async function login(retentionMs = 2 * HOUR): Promise<{ hash: string; record: SessionRecord }> {
      const { store, clock } = fx();
      const hash = newHash();
      const record: SessionRecord = { ...makeRecord({ createdAt: clock.now() }), requiredActions: ['update-password', 'mfa-enrolment'] };
      await store.create({ loginType: 'admin', tokenHash: hash, record, retentionMs, admission: { kind: 'add' }, now: clock.now() });
      return { hash, record };
    }

    it("changes only the patched fields of the record as stored now: another writer's change stays", async () => {
      const { store, clock } = fx();
      const { hash, record } = await login();
      // Another writer (a role change) lands after the caller read `record`.
      const demoted: SessionRecord = { ...record, principal: { ...record.principal, roles: [], permissions: [] } };
      assert.equal(await store.update('admin', hash, demoted, 2 * HOUR), true);
      let seen: SessionRecord | undefined;
      const patched = await store.patch('admin', hash, (current) => {
        seen = current;
        return { authTime: 42, amr: [...(current.amr ?? ['pwd']), 'otp'], attrs: { ...current.attrs, rtFamily: 'f9' } };
      });
      assert.deepEqual(seen, demoted, 'the change function gets the record as stored, not the caller-read one');
      const expected: SessionRecord = { ...demoted, authTime: 42, amr: ['pwd', 'otp'], attrs: { family: 'f1', rtFamily: 'f9' } };
      assert.deepEqual(patched, expected);
      const got = await store.getSession('admin', hash, clock.now(), null);
      assert.deepEqual(got, { state: 'active', record: expected, lastActiveAt: record.createdAt });
    });

    it('removes one required action, and the field with the last one; the indexes still list the session', async () => {
      const { store, clock } = fx();
      const { hash, record } = await login();
      const drop = (action: string) => (current: SessionRecord) => ({
        requiredActions: (current.requiredActions ?? []).filter((a) => a !== action),
      });
      assert.deepEqual((await store.patch('admin', hash, drop('update-password')))?.requiredActions, ['mfa-enrolment']);
      const full = await store.patch('admin', hash, drop('mfa-enrolment'));
      assert.ok(full !== null && !('requiredActions' in full), JSON.stringify(full));
      assert.deepEqual(
        (await store.listByUser('admin', 'u1', clock.now())).map((s) => s.tokenHash),
        [hash],
      );
      assert.equal(await store.findByTokenId('admin', record.tokenId), hash);
    });

    it('keeps the retention and the last-active time', async () => {
      const { store, clock } = fx();
      const { hash } = await login(100);
      await fx().elapse(20);
      await store.getSession('admin', hash, clock.now(), HOUR); // a use: last-active moves
      assert.ok((await store.patch('admin', hash, () => ({ authTime: 7 }))) !== null);
      const got = await store.getSession('admin', hash, clock.now(), null);
      assert.equal(got?.state === 'active' ? got.lastActiveAt : null, clock.now());
      await fx().elapse(110);
      assert.equal(await store.getSession('admin', hash, clock.now(), null), null, 'the patch did not extend the retention');
    });

    it('returns null and writes nothing for unknown sessions and tombstones', async () => {
      const { store, clock } = fx();
      const { hash } = await login();
      assert.equal(await store.patch('admin', newHash(), () => ({ authTime: 1 })), null);
      assert.equal(await store.patch('web', hash, () => ({ authTime: 1 })), null, 'another login type');
      await store.mark('admin', [hash], 'kicked-out');
      assert.equal(await store.patch('admin', hash, () => ({ authTime: 1 })), null);
      assert.deepEqual(await store.getSession('admin', hash, clock.now(), null), { state: 'kicked-out' });
    });

    it('of concurrent patches of one session, none is lost', async () => {
      const { store, clock } = fx();
      const { hash } = await login();
      const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
      await Promise.all(keys.map((k) => store.patch('admin', hash, (current) => ({ attrs: { ...current.attrs, [k]: 'x' } }))));
      const got = await store.getSession('admin', hash, clock.now(), null);
      assert.deepEqual(Object.keys(got?.state === 'active' ? got.record.attrs : {}).sort(), ['family', ...keys].sort());
    });
  });
}
