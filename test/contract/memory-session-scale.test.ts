/**
 * The memory session store at scale (issue 30), beyond the shared contract: a bulk end of thousands of
 * sessions is effective at once and its index entries go in steps; a page of one user's sessions and a
 * deep online page cost the page; expired sessions leave the listings by the sweep, in bounded steps;
 * records share what repeats.
 */
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { BULK_STEP } from '../../src/adapters/memory/bulk-ends';
import { InMemorySessionStore, SWEEP_STEP } from '../../src/adapters/memory/session-store';
import { FakeClock } from '../support/fake-clock';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;

async function fill(store: InMemorySessionStore, clock: FakeClock, userId: string, n: number, expiresAt?: number): Promise<string[]> {
  const hashes: string[] = [];
  for (let i = 0; i < n; i++) {
    const hash = newHash();
    const record = makeRecord({ userId, createdAt: clock.now() + i, ...(expiresAt !== undefined ? { expiresAt } : {}) });
    await store.create({
      loginType: 'admin',
      tokenHash: hash,
      record,
      retentionMs: 2 * HOUR,
      admission: { kind: 'add' },
      now: clock.now(),
    });
    hashes.push(hash);
  }
  return hashes;
}

describe('memory session store at scale', () => {
  it('a bulk end is effective at once for every session; the listings skip them; their index entries go in steps', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    const n = 2 * BULK_STEP + 500;
    const hashes = await fill(store, clock, 'bulk', n);
    await fill(store, clock, 'other', 3);
    const now = clock.now() + n;
    assert.equal((await store.listUserPage('admin', 'bulk', now, { offset: 0, limit: 5 })).total, n);
    assert.equal(await store.mark('admin', [...hashes, hashes[0] as string], 'kicked-out'), n);
    for (const h of [hashes[0], hashes[n - 1]])
      assert.deepEqual(await store.getSession('admin', h as string, now, null), { state: 'kicked-out' });
    assert.deepEqual((await store.listUserPage('admin', 'bulk', now, { offset: 0, limit: 5 })).sessions, []);
    assert.deepEqual(await store.listByUser('admin', 'bulk', now), []);
    const online = await store.listPage('admin', now, { offset: 0, limit: 10, scanLimit: 10_000, exactCountUpTo: 1_000 });
    assert.equal(online.sessions.length, 3);
    for (let i = 0; i < 5; i++) await turn();
    assert.equal((await store.listUserPage('admin', 'bulk', now, { offset: 0, limit: 5 })).total, 0);
    assert.equal(store.size(), n + 3 * 4, 'the tombstones, and the 3 other sessions with their 3 index entries');
  });

  it('a replacing login ends thousands of sessions in one step: exactly the new one is active', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    const hashes = await fill(store, clock, 'bulk', BULK_STEP + 10);
    const hash = newHash();
    const result = await store.create({
      loginType: 'admin',
      tokenHash: hash,
      record: makeRecord({ userId: 'bulk', createdAt: clock.now() + 5_000 }),
      retentionMs: 2 * HOUR,
      admission: { kind: 'replace', deviceType: null },
      now: clock.now(),
    });
    assert.equal(result.ended.length, hashes.length);
    assert.deepEqual(await store.getSession('admin', hashes.at(-1) as string, clock.now(), null), { state: 'replaced' });
    const page = await store.listUserPage('admin', 'bulk', clock.now() + 5_000, { offset: 0, limit: 5 });
    assert.deepEqual(
      page.sessions.map((s) => s.tokenHash),
      [hash],
    );
  });

  it('pages one user and the online list at any offset, in order, with exact totals', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    const hashes = await fill(store, clock, 'many', 3_000);
    const now = clock.now() + 5_000;
    const deep = await store.listUserPage('admin', 'many', now, { offset: 2_990, limit: 20 });
    assert.deepEqual(
      deep.sessions.map((s) => s.tokenHash),
      hashes.slice(2_990),
    );
    assert.equal(deep.total, 3_000);
    const online = await store.listPage('admin', now, { offset: 1_500, limit: 3, scanLimit: 10_000, exactCountUpTo: 0 });
    assert.deepEqual(
      online.sessions.map((s) => s.tokenHash),
      hashes.slice(1_500, 1_503),
    );
  });

  it('the sweep takes expired sessions out of the listings (keeping their records), SWEEP_STEP per step', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    const n = SWEEP_STEP + 100;
    const hashes = await fill(store, clock, 'short', n, clock.now() + 60_000);
    await fill(store, clock, 'long', 2);
    clock.advance(120_000);
    assert.equal(store.sweepStep(), true, 'more is due after one step');
    assert.equal(store.sweepStep(), false);
    const online = await store.listPage('admin', clock.now(), { offset: 0, limit: 10, scanLimit: 10_000, exactCountUpTo: 0 });
    assert.equal(online.total, 2, 'only the two current sessions are left in the online index');
    assert.equal((await store.getSession('admin', hashes[0] as string, clock.now(), null))?.state, 'active', 'the record stays');
  });

  it('a user whose sessions all expired lists none and counts 0 (their index taken apart to the last)', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    for (const n of [1, 2, 3]) {
      await fill(store, clock, `gone${n}`, n, clock.now() + 1_000);
      const page = await store.listUserPage('admin', `gone${n}`, clock.now() + 2_000, { offset: 0, limit: 5 });
      assert.deepEqual([page.sessions.length, page.total], [0, 0]);
      assert.deepEqual(await store.listByUser('admin', `gone${n}`, clock.now() + 2_000), []);
    }
  });

  it('sessions of one user share one principal; records are frozen copies', async () => {
    const clock = new FakeClock();
    const store = new InMemorySessionStore(clock);
    await fill(store, clock, 'shared', 3);
    const [a, b] = await store.listByUser('admin', 'shared', clock.now());
    assert.ok(a && b);
    assert.equal(a.record.principal, b.record.principal);
    assert.equal(a.record.principal.permissions, b.record.principal.permissions);
    assert.ok(Object.isFrozen(a.record) && Object.isFrozen(a.record.client) && Object.isFrozen(a.record.principal.roles));
  });
});
