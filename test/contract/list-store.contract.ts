/** The ListStore contract, written once and run against every adapter (see stores.test.ts). */
import assert from 'node:assert/strict';
import type { ListStore } from '../../src/application/ports/list-store';
import { type MakeFixture, useFixture } from './fixture';

export function describeListStoreContract(name: string, makeFixture: MakeFixture<ListStore>): void {
  describe(`ListStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    it('lists nothing for a missing key, then items oldest first', async () => {
      const { store } = fx();
      assert.deepEqual(await store.list('orders'), []);
      assert.equal(await store.append('orders', 'a', 100, 60_000), 1);
      assert.equal(await store.append('orders', 'b', 100, 60_000), 2);
      assert.deepEqual(await store.list('orders'), ['a', 'b']);
      assert.deepEqual(await store.list('other'), []);
    });

    it('keeps only the newest maxLength items', async () => {
      const { store } = fx();
      for (const item of ['1', '2', '3', '4']) await store.append('l', item, 3, 60_000);
      assert.deepEqual(await store.list('l'), ['2', '3', '4']);
    });

    it('expires ttl after the last append', async () => {
      const { store, elapse } = fx();
      // A 600 ms TTL: past the first append's expiry, 250 ms of slack before the second's (shorter
      // TTLs left too little slack for a loaded machine's timers).
      await store.append('l', 'x', 10, 600);
      await elapse(350);
      await store.append('l', 'y', 10, 600);
      await elapse(350);
      assert.deepEqual(await store.list('l'), ['x', 'y'], 'the second append refreshed the TTL');
      await elapse(600);
      assert.deepEqual(await store.list('l'), []);
    });

    it('loses no item under 50 concurrent appends', async () => {
      const { store } = fx();
      const lengths = await Promise.all(Array.from({ length: 50 }, (_, i) => store.append('race', `i${i}`, 1000, 60_000)));
      assert.deepEqual(
        [...lengths].sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      const items = await store.list('race');
      assert.deepEqual([...items].sort(), Array.from({ length: 50 }, (_, i) => `i${i}`).sort());
    });
  });
}
