/** The CaptchaStore contract, written once and run against every adapter (see stores.test.ts). */
import assert from 'node:assert/strict';
import type { CaptchaStore } from '../../src/application/ports/captcha-store';
import { type MakeFixture, useFixture } from './fixture';

export function describeCaptchaStoreContract(name: string, makeFixture: MakeFixture<CaptchaStore>): void {
  describe(`CaptchaStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    it('take returns what save stored; an unknown uuid is null', async () => {
      const { store, clock } = fx();
      const challenge = { answer: 'x7Kq', expiresAt: clock.now() + 60_000 };
      await store.save('admin', 'u1', challenge, 120_000);
      assert.equal(await store.take('admin', 'unknown'), null);
      assert.deepEqual(await store.take('admin', 'u1'), challenge);
    });

    it('is single use: a second take is null', async () => {
      const { store, clock } = fx();
      await store.save('admin', 'u1', { answer: 'a', expiresAt: clock.now() + 60_000 }, 120_000);
      assert.notEqual(await store.take('admin', 'u1'), null);
      assert.equal(await store.take('admin', 'u1'), null);
    });

    it('of concurrent takes exactly one gets the answer', async () => {
      const { store, clock } = fx();
      await store.save('admin', 'u1', { answer: 'a', expiresAt: clock.now() + 60_000 }, 120_000);
      const results = await Promise.all(Array.from({ length: 10 }, () => store.take('admin', 'u1')));
      assert.equal(results.filter((r) => r !== null).length, 1);
    });

    it('forgets the answer when the store TTL has passed', async () => {
      const { store, clock, elapse } = fx();
      await store.save('admin', 'u1', { answer: 'a', expiresAt: clock.now() + 60_000 }, 40);
      await store.save('admin', 'u2', { answer: 'b', expiresAt: clock.now() + 60_000 }, 60_000);
      await elapse(60);
      assert.equal(await store.take('admin', 'u1'), null);
      assert.notEqual(await store.take('admin', 'u2'), null);
    });

    it("returns expiresAt as given: expiry by that time is the caller's decision", async () => {
      const { store, clock } = fx();
      const lapsed = { answer: 'a', expiresAt: clock.now() - 1 };
      await store.save('admin', 'u1', lapsed, 60_000);
      assert.deepEqual(await store.take('admin', 'u1'), lapsed);
    });

    it('keeps scopes apart', async () => {
      const { store, clock } = fx();
      await store.save('admin', 'u1', { answer: 'admin-answer', expiresAt: clock.now() + 60_000 }, 60_000);
      await store.save('web', 'u1', { answer: 'web-answer', expiresAt: clock.now() + 60_000 }, 60_000);
      assert.equal((await store.take('web', 'u1'))?.answer, 'web-answer');
      assert.equal(await store.take('web', 'u1'), null);
      assert.equal((await store.take('admin', 'u1'))?.answer, 'admin-answer');
    });
  });
}
