/**
 * The RateLimitStore contract (exact sliding-window log), written once and run against every
 * adapter (see stores.test.ts). Time is the `now` argument: no waiting.
 */
import assert from 'node:assert/strict';
import type { RateLimitStore } from '../../src/application/ports/rate-limit-store';
import { type MakeFixture, useFixture } from './fixture';

const WINDOW = 60_000;
const LIMIT = 5;

export function describeRateLimitStoreContract(name: string, makeFixture: MakeFixture<RateLimitStore>): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    it('allows `limit` hits, rejects the next with retryAfter, and frees a slot when the first hit leaves the window', async () => {
      const { store, clock } = fx();
      const t0 = clock.now();
      for (let i = 0; i < LIMIT; i++) {
        const d = await store.hit('ip:1', LIMIT, WINDOW, t0 + i * 1_000);
        assert.deepEqual(d, { allowed: true, remaining: LIMIT - 1 - i, retryAfterMs: 0, resetMs: WINDOW });
      }
      const sixth = await store.hit('ip:1', LIMIT, WINDOW, t0 + 5_000);
      assert.deepEqual(sixth, { allowed: false, remaining: 0, retryAfterMs: 55_000, resetMs: 59_000 });

      const justBefore = await store.hit('ip:1', LIMIT, WINDOW, t0 + WINDOW - 1);
      assert.equal(justBefore.allowed, false);
      assert.equal(justBefore.retryAfterMs, 1);

      const afterFirst = await store.hit('ip:1', LIMIT, WINDOW, t0 + WINDOW);
      assert.deepEqual(afterFirst, { allowed: true, remaining: 0, retryAfterMs: 0, resetMs: WINDOW });
      const next = await store.hit('ip:1', LIMIT, WINDOW, t0 + WINDOW);
      assert.equal(next.allowed, false, 'only one slot was freed');
      assert.equal(next.retryAfterMs, 1_000, 'the second hit (t0 + 1 s) leaves next');
    });

    it('never lets 2 x limit through across a fixed-window edge', async () => {
      const { store, clock } = fx();
      // Align t0 to a window boundary so a fixed window would reset in the middle of the burst.
      const t0 = Math.ceil(clock.now() / WINDOW) * WINDOW;
      let allowed = 0;
      for (let i = 0; i < 2 * LIMIT; i++) {
        const at = i < LIMIT ? t0 - 1_000 + i : t0 + 1_000 + i; // 5 just before the edge, 5 just after
        if ((await store.hit('edge', LIMIT, WINDOW, at)).allowed) allowed++;
      }
      assert.equal(allowed, LIMIT);
    });

    it('does not record rejected hits', async () => {
      const { store, clock } = fx();
      const t0 = clock.now();
      assert.equal((await store.hit('k', 2, 10_000, t0)).allowed, true);
      assert.equal((await store.hit('k', 2, 10_000, t0 + 1)).allowed, true);
      for (let t = t0 + 2; t < t0 + 10_000; t += 500) assert.equal((await store.hit('k', 2, 10_000, t)).allowed, false);
      // Only the two accepted hits count: the first leaves at t0 + 10 s and one hit fits again.
      const d = await store.hit('k', 2, 10_000, t0 + 10_000);
      assert.deepEqual(d, { allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 10_000 });
      assert.equal((await store.hit('k', 2, 10_000, t0 + 10_000)).allowed, false);
      assert.equal((await store.hit('k', 2, 10_000, t0 + 10_001)).allowed, true);
    });

    it('of 20 concurrent hits exactly `limit` are allowed (equal timestamps all count)', async () => {
      const { store, clock } = fx();
      const now = clock.now();
      const results = await Promise.all(Array.from({ length: 20 }, () => store.hit('burst', LIMIT, WINDOW, now)));
      assert.equal(results.filter((d) => d.allowed).length, LIMIT);
      assert.deepEqual(
        results
          .filter((d) => d.allowed)
          .map((d) => d.remaining)
          .sort(),
        [0, 1, 2, 3, 4],
      );
      for (const d of results.filter((r) => !r.allowed)) assert.equal(d.retryAfterMs, WINDOW);
    });

    it('keeps keys apart, and reset forgets a key', async () => {
      const { store, clock } = fx();
      const now = clock.now();
      for (let i = 0; i < LIMIT; i++) await store.hit('a', LIMIT, WINDOW, now);
      assert.equal((await store.hit('a', LIMIT, WINDOW, now)).allowed, false);
      assert.equal((await store.hit('b', LIMIT, WINDOW, now)).allowed, true);
      await store.reset('a');
      assert.deepEqual(await store.hit('a', LIMIT, WINDOW, now), { allowed: true, remaining: LIMIT - 1, retryAfterMs: 0, resetMs: WINDOW });
      await store.reset('never-used');
    });
  });
}
