/**
 * Replacement cut-offs (refresh-cut-offs.ts) under contention: one record per account, merged by
 * compare-and-set. Many logins of one account at once under session.is-concurrent=false (one per
 * instance or per device type) each write it; every write must land (a login that gave up answered
 * 500), and each device type's cut-off must be the latest written.
 */
import assert from 'node:assert/strict';
import { RefreshCutOffs } from '../../src/application/session/refresh-cut-offs';
import { STORE_KINDS } from '../support/apps';
import { policyApp, type PolicyApp } from '../support/policy-apps';
import { requireRedis } from '../support/services';

for (const kind of STORE_KINDS) {
  describe(`refresh cut-offs under contention (${kind} store)`, function () {
    this.timeout(60_000);
    let app: PolicyApp | undefined;
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
    });
    afterEach(async () => {
      await app?.close();
      app = undefined;
    });

    it('50 parallel replacement cut-offs of one account, of 50 device types and of one, all land', async () => {
      app = await policyApp('web', kind, {}, 'cut-contention');
      const cuts = new RefreshCutOffs(app.infra.kv, 60_000);
      const at = Date.now();
      const many = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => cuts.cutDevice('web', 'u1', `D${i}`, at + i)));
      assert.deepEqual(
        many.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
        [],
      );
      for (let i = 0; i < 50; i++) assert.equal(await cuts.forDevice('web', 'u1', `D${i}`), at + i);
      const one = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => cuts.cutDevice('web', 'u2', 'PC', at + i)));
      assert.equal(one.filter((r) => r.status === 'rejected').length, 0);
      assert.equal(await cuts.forDevice('web', 'u2', 'PC'), at + 49, 'the latest cut-off wins, whatever order the writes land in');
      await cuts.cutAccount('web', 'u2', at + 100);
      await cuts.cutDevice('web', 'u2', 'APP', at + 50);
      assert.equal(await cuts.ofAccount('web', 'u2'), at + 100, "a replacement's cut-off keeps the account's");
    });
  });
}
