/**
 * One contract for the TotpStore port, run against every adapter (in memory: test/contract/totp-store-memory.test.ts;
 * MariaDB: test/sql/sql-totp-store.test.ts). `a` and `b` are two handles on one store, as two instances of the
 * service see it (the same object in memory; two pools on one database in SQL): what is atomic must hold across them.
 */
import assert from 'node:assert/strict';
import type { TotpStore } from '../../src/application/ports/totp-store';

export interface TotpStoresUnderTest {
  readonly a: TotpStore;
  readonly b: TotpStore;
  close?(): Promise<void>;
}

export type MakeTotpStores = () => Promise<TotpStoresUnderTest>;

const NOW = Date.UTC(2026, 0, 1);
const LATER = NOW + 600_000;
const SEALED = 'v1.AAAAAAAAAAAAAAAA.c2VhbGVk.BBBBBBBBBBBBBBBBBBBBBB';
const OTHER = 'v1.CCCCCCCCCCCCCCCC.b3RoZXI.DDDDDDDDDDDDDDDDDDDDDD';
const hashes = (n: number, tag = 'h') => Array.from({ length: n }, (_, i) => `${tag}${i}`.padEnd(64, '0'));

export function describeTotpStoreContract(name: string, make: MakeTotpStores): void {
  describe(`TotpStore contract: ${name}`, () => {
    let under: TotpStoresUnderTest;
    let a: TotpStore;
    let b: TotpStore;
    beforeEach(async () => {
      under = await make();
      ({ a, b } = under);
    });
    afterEach(async () => under?.close?.());

    const activate = async (store: TotpStore, userId = '7', codes = hashes(10)) => {
      await store.savePending('admin', userId, SEALED, LATER);
      return store.activate('admin', userId, { pendingSecret: SEALED, lastStep: 100, recoveryCodeHashes: codes }, NOW);
    };

    it('nothing for an unknown account', async () => {
      assert.equal(await a.pending('admin', '7', NOW), null);
      assert.equal(await a.active('admin', '7'), null);
      assert.equal(await a.acceptStep('admin', '7', 5), false);
      assert.equal(await a.useRecoveryCode('admin', '7', hashes(1)[0] as string), false);
      assert.equal(await a.recoveryCodesLeft('admin', '7'), 0);
      assert.equal(await a.remove('admin', '7'), false);
    });

    it('a pending secret is kept until it expires, and a newer one replaces it', async () => {
      await a.savePending('admin', '7', SEALED, LATER);
      assert.equal(await b.pending('admin', '7', NOW), SEALED);
      assert.equal(await b.pending('admin', '7', LATER), null, 'expired at expiresAt');
      await b.savePending('admin', '7', OTHER, LATER);
      assert.equal(await a.pending('admin', '7', NOW), OTHER);
      assert.equal(await a.active('admin', '7'), null, 'pending is not active');
    });

    it('accounts are keyed by login type and user id', async () => {
      await activate(a, '7');
      assert.equal(await a.active('web', '7'), null);
      assert.equal(await a.active('admin', '8'), null);
      assert.equal(await a.recoveryCodesLeft('web', '7'), 0);
      assert.equal(await a.remove('web', '7'), false);
      assert.deepEqual(await a.active('admin', '7'), { secret: SEALED, lastStep: 100 });
    });

    it('activate makes the pending secret active with its step and recovery codes, once', async () => {
      assert.equal(await activate(a), true);
      assert.deepEqual(await b.active('admin', '7'), { secret: SEALED, lastStep: 100 });
      assert.equal(await b.pending('admin', '7', NOW), null, 'the pending secret is gone');
      assert.equal(await b.recoveryCodesLeft('admin', '7'), 10);
      const again = { pendingSecret: SEALED, lastStep: 101, recoveryCodeHashes: hashes(10, 'x') };
      assert.equal(await b.activate('admin', '7', again, NOW), false, 'no pending secret any more');
      await b.savePending('admin', '7', OTHER, LATER);
      assert.equal(await b.activate('admin', '7', { ...again, pendingSecret: OTHER }, NOW), false, 'a factor is active already');
      assert.deepEqual(await a.active('admin', '7'), { secret: SEALED, lastStep: 100 }, 'unchanged');
    });

    it('activate refuses a pending secret that was replaced or has expired', async () => {
      await a.savePending('admin', '7', SEALED, LATER);
      await b.savePending('admin', '7', OTHER, LATER);
      const activation = { pendingSecret: SEALED, lastStep: 1, recoveryCodeHashes: hashes(2) };
      assert.equal(await a.activate('admin', '7', activation, NOW), false, 'replaced by a newer setup');
      assert.equal(await a.activate('admin', '7', { ...activation, pendingSecret: OTHER }, LATER), false, 'expired');
      assert.equal(await a.active('admin', '7'), null);
    });

    it('two instances confirming one pending secret at once: one activates', async () => {
      await a.savePending('admin', '7', SEALED, LATER);
      const activation = { pendingSecret: SEALED, lastStep: 1, recoveryCodeHashes: hashes(10) };
      const results = await Promise.all([a.activate('admin', '7', activation, NOW), b.activate('admin', '7', activation, NOW)]);
      assert.deepEqual(results.sort(), [false, true]);
      assert.equal(await a.recoveryCodesLeft('admin', '7'), 10);
    });

    it('acceptStep moves the last step forwards only: a step at or before it is refused', async () => {
      await activate(a);
      assert.equal(await a.acceptStep('admin', '7', 100), false, 'the confirming step');
      assert.equal(await a.acceptStep('admin', '7', 99), false);
      assert.equal(await b.acceptStep('admin', '7', 101), true);
      assert.equal(await a.acceptStep('admin', '7', 101), false, 'replayed on the other instance');
      assert.equal(await a.acceptStep('admin', '7', 103), true);
      assert.equal(await b.acceptStep('admin', '7', 102), false, 'older than one accepted');
      assert.deepEqual(await b.active('admin', '7'), { secret: SEALED, lastStep: 103 });
    });

    it('one step accepted once when two instances try it at the same moment', async () => {
      await activate(a);
      for (const step of [101, 102, 103]) {
        const results = await Promise.all([a.acceptStep('admin', '7', step), b.acceptStep('admin', '7', step)]);
        assert.deepEqual(results.sort(), [false, true], `step ${step}`);
      }
    });

    it('acceptStep may replace the sealed secret (sealed again under a new key), only when the step is accepted', async () => {
      await activate(a);
      assert.equal(await a.acceptStep('admin', '7', 100, OTHER), false);
      assert.equal((await a.active('admin', '7'))?.secret, SEALED);
      assert.equal(await a.acceptStep('admin', '7', 101, OTHER), true);
      assert.deepEqual(await b.active('admin', '7'), { secret: OTHER, lastStep: 101 });
    });

    it('each recovery code is used once, also by two instances at once', async () => {
      const codes = hashes(3);
      await activate(a, '7', codes);
      assert.equal(await a.useRecoveryCode('admin', '7', codes[0] as string), true);
      assert.equal(await b.useRecoveryCode('admin', '7', codes[0] as string), false);
      assert.equal(await a.useRecoveryCode('web', '7', codes[1] as string), false, 'another login type');
      assert.equal(await a.useRecoveryCode('admin', '7', 'f'.repeat(64)), false, 'unknown');
      const results = await Promise.all([
        a.useRecoveryCode('admin', '7', codes[1] as string),
        b.useRecoveryCode('admin', '7', codes[1] as string),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      assert.equal(await a.recoveryCodesLeft('admin', '7'), 1);
    });

    it('remove drops the factor, the recovery codes and a pending secret; a new enrolment starts afresh', async () => {
      await activate(a);
      await a.savePending('admin', '7', OTHER, LATER);
      assert.equal(await b.remove('admin', '7'), true);
      assert.equal(await a.active('admin', '7'), null);
      assert.equal(await a.pending('admin', '7', NOW), null);
      assert.equal(await a.recoveryCodesLeft('admin', '7'), 0);
      assert.equal(await a.remove('admin', '7'), false);
      await a.savePending('admin', '7', SEALED, LATER);
      assert.equal(await a.remove('admin', '7'), false, 'only pending: no factor was active');
      assert.equal(await a.pending('admin', '7', NOW), null, 'but the pending secret is gone');
      assert.equal(await activate(b, '7', hashes(4, 'n')), true);
      assert.equal(await a.recoveryCodesLeft('admin', '7'), 4);
      assert.equal(await a.useRecoveryCode('admin', '7', hashes(1)[0] as string), false, 'the old codes are gone');
    });
  });
}
