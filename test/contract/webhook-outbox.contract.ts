/** The WebhookOutbox contract, written once and run against every adapter (see stores.test.ts, redis-contracts.ts). */
import assert from 'node:assert/strict';
import type { WebhookOutbox } from '../../src/application/ports/webhook-outbox';
import { type MakeFixture, useFixture } from './fixture';

const msg = (id: string) => ({ id, body: JSON.stringify({ type: 'audit.login', data: { id, note: 'a|b' } }) });

export function describeWebhookOutboxContract(name: string, makeFixture: MakeFixture<WebhookOutbox>): void {
  describe(`WebhookOutbox contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    it('hands out the head, in order, until each is acknowledged; endpoints apart', async () => {
      const { store } = fx();
      assert.equal(await store.head('ep1'), null);
      assert.equal(await store.enqueue('ep1', 'b1', [msg('m1'), msg('m2')], 100), 2);
      assert.equal(await store.enqueue('ep1', 'b2', [msg('m3')], 100), 1);
      assert.equal(await store.enqueue('ep2', 'b1', [msg('x1')], 100), 1);
      assert.deepEqual(await store.head('ep1'), { ...msg('m1'), attempts: 0, notBefore: 0 });
      await store.ack('ep1', 'm2'); // not the head: nothing happens
      assert.equal((await store.head('ep1'))?.id, 'm1');
      await store.ack('ep1', 'm1');
      assert.equal((await store.head('ep1'))?.id, 'm2');
      await store.ack('ep1', 'm2');
      await store.ack('ep1', 'm3');
      assert.equal(await store.head('ep1'), null);
      assert.equal((await store.head('ep2'))?.id, 'x1');
    });

    it("keeps the head's attempts and next try until it is acknowledged; the next head starts afresh", async () => {
      const { store } = fx();
      await store.enqueue('ep', 'b', [msg('m1'), msg('m2')], 100);
      await store.defer('ep', 'm2', 9, 9); // not the head: nothing happens
      await store.defer('ep', 'm1', 2, 123_456);
      assert.deepEqual(await store.head('ep'), { ...msg('m1'), attempts: 2, notBefore: 123_456 });
      await store.ack('ep', 'm1');
      assert.deepEqual(await store.head('ep'), { ...msg('m2'), attempts: 0, notBefore: 0 });
    });

    it('takes a batch enqueued again once, and holds at most maxPending', async () => {
      const { store } = fx();
      assert.equal(await store.enqueue('ep', 'same', [msg('m1'), msg('m2')], 3), 2);
      assert.equal(await store.enqueue('ep', 'same', [msg('m1'), msg('m2')], 3), 2);
      assert.equal(await store.enqueue('ep', 'other', [msg('m3'), msg('m4')], 3), 1);
      const ids: string[] = [];
      for (let h = await store.head('ep'); h !== null; h = await store.head('ep')) {
        ids.push(h.id);
        await store.ack('ep', h.id);
      }
      assert.deepEqual(ids, ['m1', 'm2', 'm3']);
    });

    it('the lease: one owner at a time, renewed by it, free once released or lapsed', async () => {
      const { store, elapse } = fx();
      assert.equal(await store.lease('ep', 'a', 200), true);
      assert.equal(await store.lease('ep', 'b', 200), false);
      assert.equal(await store.lease('ep', 'a', 200), true);
      await store.release('ep', 'b'); // not the holder: nothing happens
      assert.equal(await store.lease('ep', 'b', 200), false);
      await store.release('ep', 'a');
      assert.equal(await store.lease('ep', 'b', 100), true);
      await elapse(150);
      assert.equal(await store.lease('ep', 'a', 200), true);
    });
  });
}
