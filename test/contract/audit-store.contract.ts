/** The AuditStore contract, written once and run against every adapter (see stores.test.ts, redis-contracts.ts). */
import assert from 'node:assert/strict';
import { UuidV7 } from '../../src/application/audit/event-id';
import { eventOf, type SecurityEvent, type SecurityEventInput } from '../../src/application/audit/security-event';
import type { AuditQuery, AuditStore } from '../../src/application/ports/audit-store';
import { type MakeFixture, useFixture } from './fixture';

const DAY = 86_400_000;
const RETAIN = 30 * DAY;

export function describeAuditStoreContract(name: string, makeFixture: MakeFixture<AuditStore>): void {
  describe(`AuditStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);
    const ids = new UuidV7();
    const ev = (time: number, input: Partial<SecurityEventInput> = {}): SecurityEvent =>
      eventOf({ type: 'login', loginType: 'admin', outcome: 'success', ...input }, ids.next(time), time);
    const q = (query: Partial<AuditQuery> = {}): AuditQuery => ({ loginType: 'admin', log: 'login', limit: 50, ...query });
    /** Every page of `query`, following nextCursor. */
    async function all(store: AuditStore, query: AuditQuery): Promise<SecurityEvent[][]> {
      const pages: SecurityEvent[][] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 100; i++) {
        const page = await store.query({ ...query, ...(cursor === undefined ? {} : { cursor }) });
        pages.push([...page.list]);
        if (page.nextCursor === null) return pages;
        cursor = page.nextCursor;
      }
      throw new Error('paging did not end');
    }

    it('an empty log answers an empty page and no cursor', async () => {
      assert.deepEqual(await fx().store.query(q()), { list: [], nextCursor: null });
    });

    it('answers newest first, each log of each login type apart, the events as appended', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const a = [ev(t, { username: 'ann' }), ev(t + 1, { username: 'bob' })];
      const web = ev(t + 2, { loginType: 'web', username: 'wendy' });
      const op = ev(t + 3, { type: 'user-disabled', actor: 'root', action: 'user.disable', target: '7' });
      await store.append([...a, web, op], RETAIN);
      assert.deepEqual((await store.query(q())).list, [a[1], a[0]]);
      assert.deepEqual((await store.query(q({ loginType: 'web' }))).list, [web]);
      assert.deepEqual((await store.query(q({ log: 'operation' }))).list, [op]);
    });

    it('filters by username, user id, ip, outcome, type, actor, action, target and time', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const e = [
        ev(t, { username: 'ann', userId: '1', ip: '10.0.0.1' }),
        ev(t + 10, { username: 'bob', ip: '10.0.0.2', outcome: 'failure', reason: 'bad-credentials' }),
        ev(t + 20, { type: 'logout', username: 'ann', userId: '1', ip: '10.0.0.2' }),
      ];
      const ops = [
        ev(t, { type: 'user-disabled', actor: 'root', action: 'user.disable', target: '7' }),
        ev(t + 5, { type: 'roles-changed', actor: 'ops', action: 'user.roles', target: '8' }),
      ];
      await store.append([...e, ...ops], RETAIN);
      const got = async (query: Partial<AuditQuery>) => (await store.query(q(query))).list.map((x) => x.id);
      assert.deepEqual(await got({ username: 'ann' }), [e[2]?.id, e[0]?.id]);
      assert.deepEqual(await got({ userId: '1', types: ['login'] }), [e[0]?.id]);
      assert.deepEqual(await got({ ip: '10.0.0.2' }), [e[2]?.id, e[1]?.id]);
      assert.deepEqual(await got({ outcome: 'failure' }), [e[1]?.id]);
      assert.deepEqual(await got({ from: t + 5, to: t + 15 }), [e[1]?.id]);
      assert.deepEqual(await got({ log: 'operation', actor: 'root' }), [ops[0]?.id]);
      assert.deepEqual(await got({ log: 'operation', action: 'user.roles' }), [ops[1]?.id]);
      assert.deepEqual(await got({ log: 'operation', target: '7' }), [ops[0]?.id]);
    });

    it('pages by cursor: every event once, newest first, then no cursor', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const events = Array.from({ length: 7 }, (_, i) => ev(t + i, { username: `u${i}` }));
      await store.append(events.slice(0, 3), RETAIN);
      await store.append(events.slice(3), RETAIN);
      const pages = await all(store, q({ limit: 3 }));
      const seen = pages.flat().map((x) => x.username);
      assert.deepEqual(seen, events.map((x) => x.username).reverse());
      assert.ok(pages.every((p) => p.length <= 3));
    });

    it('pages a filtered query the same way', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const events = Array.from({ length: 20 }, (_, i) => ev(t + i, { username: i % 3 === 0 ? 'ann' : 'bob' }));
      await store.append(events, RETAIN);
      const anns = (await all(store, q({ username: 'ann', limit: 2 }))).flat();
      assert.deepEqual(
        anns.map((x) => x.id),
        events
          .filter((x) => x.username === 'ann')
          .map((x) => x.id)
          .reverse(),
      );
    });

    it('removes what is older than the retention as events are appended', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const old = ev(t - 3 * DAY, { username: 'old' });
      await store.append([old], RETAIN);
      assert.equal((await store.query(q())).list.length, 1);
      const fresh = ev(t, { username: 'fresh' });
      await store.append([fresh], 2 * DAY);
      assert.deepEqual(
        (await store.query(q())).list.map((x) => x.username),
        ['fresh'],
      );
    });

    it('keeps events of the same ms and of concurrent appends, each once', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const batches = Array.from({ length: 10 }, (_, b) => Array.from({ length: 5 }, (_, i) => ev(t, { username: `b${b}i${i}` })));
      await Promise.all(batches.map((b) => store.append(b, RETAIN)));
      const names = (await all(store, q({ limit: 8 }))).flat().map((x) => x.username);
      assert.equal(names.length, 50);
      assert.equal(new Set(names).size, 50);
    });

    it('keeps a batch appended again (a retry after a lost answer) once', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      const batch = [ev(t, { username: 'a' }), ev(t + 1, { username: 'b' }), ev(t + 2, { type: 'kickout', action: 'session.kickout' })];
      await store.append(batch, RETAIN);
      await store.append(batch, RETAIN);
      assert.deepEqual(
        (await store.query(q())).list.map((x) => x.username),
        ['b', 'a'],
      );
      assert.equal((await store.query(q({ log: 'operation' }))).list.length, 1);
    });

    it('chains every stored event to the one before: a log verifies from its start, after the retention from its anchor', async () => {
      const { store, clock } = fx();
      const t = clock.now();
      await store.append([ev(t - 3 * DAY, { username: 'old' })], RETAIN);
      await store.append([ev(t, { username: 'a' }), ev(t + 1, { username: 'b' })], RETAIN);
      await store.append([ev(t + 2, { username: 'c' })], RETAIN);
      const whole = await store.verifyChain('admin', 'login');
      assert.equal(whole.checked, 4);
      assert.equal(whole.fromStart, true);
      assert.equal(whole.firstBreak, null);
      assert.deepEqual(await store.verifyChain('web', 'login'), {
        checked: 0,
        first: null,
        last: null,
        fromStart: false,
        firstBreak: null,
      });
      const range = await store.verifyChain('admin', 'login', { from: t });
      assert.equal(range.checked, 3);
      assert.equal(range.fromStart, false, 'the first event of the range is the anchor');
      await store.append([ev(t + 3, { username: 'd' })], 2 * DAY); // the old event goes
      const trimmed = await store.verifyChain('admin', 'login');
      assert.deepEqual([trimmed.checked, trimmed.fromStart, trimmed.firstBreak], [4, false, null]);
    });
  });
}
