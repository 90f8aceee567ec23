/**
 * One contract for the PasskeyStore port, run against every adapter (in memory; SQL on MariaDB in
 * test/sql): each test gets an empty store.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { PasskeyStore, StoredPasskey } from '../../src/application/ports/passkey-store';

export interface PasskeyStoreUnderTest {
  readonly store: PasskeyStore;
  close?(): Promise<void>;
}

export type MakePasskeyStore = () => Promise<PasskeyStoreUnderTest>;

let created = Date.UTC(2026, 0, 1);

/** A credential of `userId` with a fresh random id; later calls are younger. */
export function passkey(userId: string, over: Partial<StoredPasskey> = {}): StoredPasskey {
  created += 1000;
  return {
    id: randomBytes(16).toString('base64url'),
    userId,
    publicKey: randomBytes(77).toString('base64url'),
    counter: 0,
    transports: ['internal', 'hybrid'],
    name: 'Laptop',
    createdAt: created,
    lastUsedAt: null,
    deviceType: 'multiDevice',
    backedUp: true,
    ...over,
  };
}

export function describePasskeyStoreContract(name: string, make: MakePasskeyStore): void {
  describe(`PasskeyStore contract: ${name}`, function () {
    let under: PasskeyStoreUnderTest;
    let store: PasskeyStore;
    beforeEach(async () => {
      under = await make();
      store = under.store;
    });
    afterEach(async () => under?.close?.());

    it('finds what it stored, every field as given (the longest credential id too), and null for an unknown id', async () => {
      const a = passkey('1');
      const long = passkey('1', { id: randomBytes(1023).toString('base64url'), transports: [], name: 'Schlüssel 🔑', counter: 7 });
      const used = passkey('1', { lastUsedAt: Date.UTC(2026, 1, 2, 3, 4, 5, 678), deviceType: 'singleDevice', backedUp: false });
      for (const p of [a, long, used]) assert.equal(await store.add('admin', p), true);
      assert.deepEqual(await store.find('admin', a.id), a);
      assert.deepEqual(await store.find('admin', long.id), long);
      assert.deepEqual(await store.find('admin', used.id), used);
      assert.equal(await store.find('admin', passkey('1').id), null);
      assert.equal(await store.find('web', a.id), null, 'another login type holds none');
    });

    it('refuses a credential id registered already in the login type, whoever holds it; the stored one is unchanged', async () => {
      const a = passkey('1');
      assert.equal(await store.add('admin', a), true);
      assert.equal(await store.add('admin', { ...a, userId: '2', name: 'thief' }), false);
      assert.equal(await store.add('admin', { ...a, name: 'again' }), false);
      assert.deepEqual(await store.find('admin', a.id), a);
      assert.equal(await store.add('web', { ...a, userId: '2' }), true, 'the login types are apart');
      assert.equal((await store.find('web', a.id))?.userId, '2');
    });

    it("lists a user's credentials of the login type, oldest first", async () => {
      const [a, b, other, web] = [passkey('1'), passkey('1'), passkey('2'), passkey('1')];
      await store.add('admin', b);
      await store.add('admin', a);
      await store.add('admin', other);
      await store.add('web', web);
      assert.deepEqual(
        (await store.list('admin', '1')).map((p) => p.id),
        [a, b].sort((x, y) => x.createdAt - y.createdAt).map((p) => p.id),
      );
      assert.deepEqual(await store.list('web', '1'), [web]);
      assert.deepEqual(await store.list('admin', '3'), []);
    });

    it("removes only the user's own credential", async () => {
      const [a, b] = [passkey('1'), passkey('2')];
      await store.add('admin', a);
      await store.add('admin', b);
      assert.equal(await store.remove('admin', '1', b.id), false, "another user's");
      assert.equal(await store.remove('web', '1', a.id), false, 'another login type');
      assert.equal(await store.remove('admin', '1', a.id), true);
      assert.equal(await store.remove('admin', '1', a.id), false, 'gone');
      assert.equal(await store.find('admin', a.id), null);
      assert.deepEqual(await store.find('admin', b.id), b);
    });

    it('records a use only when the counter moves forward: an equal or lower counter (a clone) changes nothing', async () => {
      const a = passkey('1', { counter: 5, backedUp: false });
      await store.add('admin', a);
      const at = Date.UTC(2026, 2, 1);
      assert.equal(await store.recordUse('admin', a.id, { counter: 5, usedAt: at, backedUp: true }), false);
      assert.equal(await store.recordUse('admin', a.id, { counter: 4, usedAt: at, backedUp: true }), false);
      assert.equal(await store.recordUse('admin', a.id, { counter: 0, usedAt: at, backedUp: true }), false);
      assert.deepEqual(await store.find('admin', a.id), a);
      assert.equal(await store.recordUse('admin', a.id, { counter: 9, usedAt: at, backedUp: true }), true);
      assert.deepEqual(await store.find('admin', a.id), { ...a, counter: 9, lastUsedAt: at, backedUp: true });
      assert.equal(await store.recordUse('web', a.id, { counter: 10, usedAt: at, backedUp: true }), false, 'another login type');
      assert.equal(await store.recordUse('admin', passkey('1').id, { counter: 10, usedAt: at, backedUp: true }), false, 'unknown');
    });

    it('records every use of an authenticator that does not count (0 after 0), and the time of each', async () => {
      const a = passkey('1');
      await store.add('web', a);
      for (const usedAt of [Date.UTC(2026, 3, 1), Date.UTC(2026, 3, 2)]) {
        assert.equal(await store.recordUse('web', a.id, { counter: 0, usedAt, backedUp: true }), true);
        assert.equal((await store.find('web', a.id))?.lastUsedAt, usedAt);
      }
    });

    it('of concurrent uses reporting the same counter, one is recorded', async () => {
      const a = passkey('1', { counter: 1 });
      await store.add('admin', a);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.recordUse('admin', a.id, { counter: 2, usedAt: a.createdAt + i, backedUp: true })),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal((await store.find('admin', a.id))?.counter, 2);
    });
  });
}
