/** The StoreHealth contract, run against every adapter (see stores.test.ts). */
import assert from 'node:assert/strict';
import type { StoreHealth } from '../../src/application/ports/store-health';
import { type MakeFixture, useFixture } from './fixture';

export function describeStoreHealthContract(name: string, makeFixture: MakeFixture<StoreHealth>): void {
  describe(`StoreHealth contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    it('ping reports up with a latency', async () => {
      const result = await fx().store.ping();
      assert.equal(result.up, true);
      assert.ok(result.latencyMs >= 0 && Number.isFinite(result.latencyMs));
    });

    it('close resolves, and a second close too', async () => {
      await fx().store.close();
      await fx().store.close();
    });
  });
}
