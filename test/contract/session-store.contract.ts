/**
 * The SessionStore contract, written once and run against every adapter (see stores.test.ts).
 * Store-owned TTLs (retention) are tested with short TTLs and `elapse`; logical time
 * (expiresAt, idle) by passing a later `now`, which needs no waiting.
 */
import assert from 'node:assert/strict';
import type { Admission, CreateSessionResult, SessionStore } from '../../src/application/ports/session-store';
import type { SessionRecord, StoredSession } from '../../src/domain/session';
import { type MakeFixture, useFixture } from './fixture';
import { describeOnlinePageContract } from './online-page.contract';
import { describeSessionPatchContract } from './session-patch.contract';
import { describeUserPageContract } from './user-page.contract';
import { describeSessionAdmissionContract } from './session-admission.contract';
import { describeHostileStringsContract } from './session-hostile-strings.contract';
import { makeRecord, newHash } from './session-records';
import type { LoginType } from '../../src/domain/login-type';
import { listAll } from '../support/online-page';

const HOUR = 3_600_000;

export { makeRecord, newHash } from './session-records';

/** Asserts that `got` is an active session and returns it. */
function active(got: StoredSession | null): Extract<StoredSession, { state: 'active' }> {
  assert.ok(got !== null && got.state === 'active', `expected an active session, got ${JSON.stringify(got)}`);
  return got;
}

export function describeSessionStoreContract(name: string, makeFixture: MakeFixture<SessionStore>): void {
  describe(`SessionStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    /** Creates a session of `userId` at the clock's now (retention 1 h unless given). */
    async function login(
      opts: {
        userId?: string;
        loginType?: LoginType;
        retentionMs?: number | null;
        expiresAt?: number | null;
        admission?: Admission;
        createdAt?: number;
        deviceType?: string;
      } = {},
    ): Promise<{ hash: string; record: SessionRecord; replaced: number; outcome: CreateSessionResult['outcome']; ended: string[] }> {
      const { store, clock } = fx();
      const loginType = opts.loginType ?? 'admin';
      const now = clock.now();
      const hash = newHash();
      const record = makeRecord({
        loginType,
        userId: opts.userId ?? 'u1',
        createdAt: opts.createdAt ?? now,
        ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}),
        ...(opts.deviceType !== undefined ? { deviceType: opts.deviceType } : {}),
      });
      const { outcome, ended } = await store.create({
        loginType,
        tokenHash: hash,
        record,
        retentionMs: opts.retentionMs === undefined ? 2 * HOUR : opts.retentionMs,
        admission: opts.admission ?? { kind: 'add' },
        now,
      });
      return { hash, record, replaced: ended.length, outcome, ended: ended.map((e) => e.tokenHash) };
    }

    describe('create / get', () => {
      it('returns the stored record with lastActiveAt = creation time', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login();
        const got = await store.getSession('admin', hash, clock.now(), null);
        assert.deepEqual(got, { state: 'active', record, lastActiveAt: clock.now() });
      });

      it('returns null for an unknown hash and for another login type', async () => {
        const { store, clock } = fx();
        const { hash } = await login();
        assert.equal(await store.getSession('admin', newHash(), clock.now(), null), null);
        assert.equal(await store.getSession('web', hash, clock.now(), null), null);
      });

      it('reads of many sessions at once each answer their own session (live, tombstoned, deleted, unknown)', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const sessions: Array<{ hash: string; record: SessionRecord }> = [];
        for (let i = 0; i < 12; i++) sessions.push(await login({ userId: `m${i}` }));
        // A last-active time of each session's own (t0 + 10 i), so a read given another's shows.
        for (let i = 0; i < 12; i++) await store.getSession('admin', (sessions[i] as { hash: string }).hash, t0 + 10 * i, 60_000);
        await store.mark('admin', [(sessions[3] as { hash: string }).hash], 'kicked-out');
        await store.deleteSession('admin', (sessions[7] as { hash: string }).hash);
        const unknown = newHash();
        const got = await Promise.all([
          ...sessions.map((s) => store.getSession('admin', s.hash, t0 + 500, null)),
          store.getSession('admin', unknown, t0 + 500, null),
        ]);
        sessions.forEach((s, i) => {
          if (i === 3) assert.deepEqual(got[i], { state: 'kicked-out' });
          else if (i === 7) assert.equal(got[i], null);
          else assert.deepEqual(got[i], { state: 'active', record: s.record, lastActiveAt: t0 + 10 * i }, `session ${i}`);
        });
        assert.equal(got[12], null);
      });

      it('keeps a session without retention (no expiry)', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login({ retentionMs: null, expiresAt: null });
        await fx().elapse(40);
        assert.deepEqual(active(await store.getSession('admin', hash, clock.now(), null)).record, record);
      });

      it('forgets a session once its retention has passed, with its index entries', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login({ retentionMs: 40 });
        assert.equal((await store.getSession('admin', hash, clock.now(), null))?.state, 'active');
        await fx().elapse(80);
        assert.equal(await store.getSession('admin', hash, clock.now(), null), null);
        assert.deepEqual(await store.listByUser('admin', 'u1', clock.now()), []);
        assert.deepEqual(await listAll(store, 'admin', clock.now(), 10), []);
        assert.equal(await store.findByTokenId('admin', record.tokenId), null);
      });
    });

    describe('idle tracking (get with idleLimitMs)', () => {
      it('moves lastActiveAt to now while fresh and returns the value before the touch', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const { hash } = await login();
        const first = await store.getSession('admin', hash, t0 + 1_000, 5_000);
        assert.equal(active(first).lastActiveAt, t0);
        const second = await store.getSession('admin', hash, t0 + 4_000, 5_000);
        assert.equal(active(second).lastActiveAt, t0 + 1_000);
        const plain = await store.getSession('admin', hash, t0 + 4_000, null);
        assert.equal(active(plain).lastActiveAt, t0 + 4_000);
      });

      it('does not touch a frozen session (idle longer than the limit): it stays frozen', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const { hash } = await login();
        const late = await store.getSession('admin', hash, t0 + 6_000, 5_000);
        assert.equal(active(late).lastActiveAt, t0);
        const again = await store.getSession('admin', hash, t0 + 6_001, 5_000);
        assert.equal(active(again).lastActiveAt, t0, 'a frozen session must not be revived');
      });

      it('touches at exactly the limit, but not with idleLimitMs null', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const { hash } = await login();
        await store.getSession('admin', hash, t0 + 3_000, null);
        const noTouch = await store.getSession('admin', hash, t0 + 5_000, 5_000);
        assert.equal(active(noTouch).lastActiveAt, t0, 'a null idle limit must not touch');
        const after = await store.getSession('admin', hash, t0 + 5_000, null);
        assert.equal(active(after).lastActiveAt, t0 + 5_000);
      });

      it(
        'reads of many sessions at once each touch and answer their own session (own last-active, ' +
          'own idle limit; tombstoned, deleted, unknown)',
        async () => {
          const { store, clock } = fx();
          const t0 = clock.now();
          const sessions: Array<{ hash: string; record: SessionRecord }> = [];
          for (let i = 0; i < 10; i++) sessions.push(await login({ userId: `t${i}` }));
          const hashOf = (i: number) => (sessions[i] as { hash: string }).hash;
          // Each session last active at t0 + 100 i (its own read).
          for (let i = 0; i < 10; i++) await store.getSession('admin', hashOf(i), t0 + 100 * i, 60_000);
          await store.mark('admin', [hashOf(2)], 'replaced');
          await store.deleteSession('admin', hashOf(5));
          // All at once at t0 + 5 s, each with a limit of its own: even sessions 60 s (fresh: touched),
          // odd ones 4.5 s - 100 i... so that those idle longer than their own limit are frozen.
          const at = t0 + 5_000;
          const limitOf = (i: number) => (i % 2 === 0 ? 60_000 : 4_500);
          const got = (await Promise.all([
            ...sessions.map((_, i) => store.getSession('admin', hashOf(i), at, limitOf(i))),
            store.getSession('admin', newHash(), at, 60_000),
          ])) as Array<StoredSession | null>;
          const after = (await Promise.all(
            sessions.map((_, i) => store.getSession('admin', hashOf(i), at + 1, null)),
          )) as Array<StoredSession | null>;
          sessions.forEach((s, i) => {
            if (i === 2) assert.deepEqual([got[i], after[i]], [{ state: 'replaced' }, { state: 'replaced' }]);
            else if (i === 5) assert.deepEqual([got[i], after[i]], [null, null]);
            else {
              assert.deepEqual(active(got[i] ?? null).record, s.record, `session ${i}`);
              assert.equal(active(got[i] ?? null).lastActiveAt, t0 + 100 * i, `session ${i}: its own last-active before the touch`);
              // Idle 5000 - 100 i: within 60 s always; within 4.5 s only from i = 5 on.
              const touched = limitOf(i) === 60_000 || 5_000 - 100 * i <= 4_500;
              assert.equal(
                active(after[i] ?? null).lastActiveAt,
                touched ? at : t0 + 100 * i,
                `session ${i}: ${touched ? 'touched' : 'frozen by its own limit'}`,
              );
            }
          });
          assert.equal(got[10], null);
        },
      );

      it('lists sessions with their current lastActiveAt', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const { hash } = await login();
        await store.getSession('admin', hash, t0 + 2_000, 5_000);
        const [listed] = await store.listByUser('admin', 'u1', t0 + 2_000);
        assert.equal(listed?.lastActiveAt, t0 + 2_000);
      });
    });

    describe('update', () => {
      it('replaces the record of an active session', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login();
        const renewed: SessionRecord = { ...record, expiresAt: record.createdAt + 2 * HOUR, attrs: { family: 'f2' } };
        assert.equal(await store.update('admin', hash, renewed, 3 * HOUR), true);
        const got = await store.getSession('admin', hash, clock.now(), null);
        assert.deepEqual(active(got).record, renewed);
        assert.equal(active(got).lastActiveAt, clock.now(), 'update keeps lastActiveAt');
      });

      it('fails for unknown sessions and tombstones', async () => {
        const { store } = fx();
        const { hash, record } = await login();
        assert.equal(await store.update('admin', newHash(), record, HOUR), false);
        await store.mark('admin', [hash], 'kicked-out');
        assert.equal(await store.update('admin', hash, record, HOUR), false);
        assert.deepEqual(await store.getSession('admin', hash, fx().clock.now(), null), { state: 'kicked-out' });
      });

      it('resets the retention', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login({ retentionMs: 100 });
        await fx().elapse(30);
        assert.equal(await store.update('admin', hash, record, HOUR), true);
        await fx().elapse(110);
        assert.equal((await store.getSession('admin', hash, clock.now(), null))?.state, 'active');
      });
    });

    describe('delete', () => {
      it('removes the session and its index entries; true only when something was removed', async () => {
        const { store, clock } = fx();
        const { hash, record } = await login();
        assert.equal(await store.deleteSession('admin', hash), true);
        assert.equal(await store.getSession('admin', hash, clock.now(), null), null);
        assert.equal(await store.deleteSession('admin', hash), false);
        assert.deepEqual(await store.listByUser('admin', 'u1', clock.now()), []);
        assert.deepEqual(await listAll(store, 'admin', clock.now(), 10), []);
        assert.equal(await store.findByTokenId('admin', record.tokenId), null);
      });

      it('removes a tombstone', async () => {
        const { store, clock } = fx();
        const { hash } = await login();
        await store.mark('admin', [hash], 'replaced');
        assert.equal(await store.deleteSession('admin', hash), true);
        assert.equal(await store.getSession('admin', hash, clock.now(), null), null);
      });

      it('deleteMany removes many sessions and their index entries, counting what it removed', async () => {
        const { store, clock } = fx();
        const made = await Promise.all(Array.from({ length: 7 }, () => login()));
        const kept = await login({ userId: 'other' });
        const hashes = [...made.map((m) => m.hash), newHash()];
        assert.equal(await store.deleteMany('admin', hashes), 7);
        assert.equal(await store.deleteMany('admin', hashes), 0);
        for (const m of made) assert.equal(await store.getSession('admin', m.hash, clock.now(), null), null);
        assert.deepEqual(await store.listByUser('admin', 'u1', clock.now()), []);
        assert.deepEqual(
          (await listAll(store, 'admin', clock.now(), 10)).map((s) => s.tokenHash),
          [kept.hash],
        );
        assert.equal(await store.findByTokenId('admin', (made[0] as { record: { tokenId: string } }).record.tokenId), null);
      });
    });

    describe('mark (tombstones)', () => {
      it('turns active sessions into tombstones that report their state', async () => {
        const { store, clock } = fx();
        const a = await login();
        const b = await login();
        assert.equal(await store.mark('admin', [a.hash, b.hash, newHash()], 'kicked-out'), 2);
        assert.deepEqual(await store.getSession('admin', a.hash, clock.now(), 1_000), { state: 'kicked-out' });
        assert.deepEqual(await store.getSession('admin', b.hash, clock.now(), null), { state: 'kicked-out' });
      });

      it('counts only active sessions and never changes a tombstone', async () => {
        const { store, clock } = fx();
        const { hash } = await login();
        assert.equal(await store.mark('admin', [hash], 'replaced'), 1);
        assert.equal(await store.mark('admin', [hash], 'kicked-out'), 0);
        assert.deepEqual(await store.getSession('admin', hash, clock.now(), null), { state: 'replaced' });
        assert.equal(await store.mark('admin', [], 'kicked-out'), 0);
      });

      it('keeps the original retention: the tombstone disappears when the session would have', async () => {
        const { store, clock } = fx();
        const { hash } = await login({ retentionMs: 100 });
        await fx().elapse(20);
        assert.equal(await store.mark('admin', [hash], 'kicked-out'), 1);
        assert.deepEqual(await store.getSession('admin', hash, clock.now(), null), { state: 'kicked-out' });
        await fx().elapse(100);
        assert.equal(await store.getSession('admin', hash, clock.now(), null), null);
      });

      it('removes tombstoned sessions from listings and token-id lookup', async () => {
        const { store, clock } = fx();
        const a = await login();
        const b = await login();
        await store.mark('admin', [a.hash], 'kicked-out');
        assert.deepEqual(
          (await store.listByUser('admin', 'u1', clock.now())).map((s) => s.tokenHash),
          [b.hash],
        );
        assert.deepEqual(
          (await listAll(store, 'admin', clock.now(), 10)).map((s) => s.tokenHash),
          [b.hash],
        );
        assert.equal(await store.findByTokenId('admin', a.record.tokenId), null);
        assert.equal(await store.findByTokenId('admin', b.record.tokenId), b.hash);
      });
    });

    describe('create with replaceOthers', () => {
      it("marks the user's other active sessions of that type as replaced and counts them", async () => {
        const { store, clock } = fx();
        const a = await login();
        const b = await login();
        const otherType = await login({ loginType: 'web' });
        const otherUser = await login({ userId: 'u2' });
        const c = await login({ admission: { kind: 'replace', deviceType: null } });
        assert.equal(c.replaced, 2);
        assert.deepEqual(await store.getSession('admin', a.hash, clock.now(), null), { state: 'replaced' });
        assert.deepEqual(await store.getSession('admin', b.hash, clock.now(), null), { state: 'replaced' });
        assert.equal((await store.getSession('web', otherType.hash, clock.now(), null))?.state, 'active');
        assert.equal((await store.getSession('admin', otherUser.hash, clock.now(), null))?.state, 'active');
        assert.equal((await store.getSession('admin', c.hash, clock.now(), null))?.state, 'active');
        assert.deepEqual(
          (await store.listByUser('admin', 'u1', clock.now())).map((s) => s.tokenHash),
          [c.hash],
        );
      });

      it('of concurrent logins of one user with replaceOthers, exactly one stays active, and it is the one listed', async () => {
        const { store, clock } = fx();
        const logins = await Promise.all(Array.from({ length: 12 }, () => login({ admission: { kind: 'replace', deviceType: null } })));
        const states = await Promise.all(logins.map((l) => store.getSession('admin', l.hash, clock.now(), null)));
        const live = logins.filter((_, i) => states[i]?.state === 'active');
        assert.equal(live.length, 1, `active after the race: ${live.length}`);
        assert.ok(
          states.every((st) => st?.state === 'active' || st?.state === 'replaced'),
          JSON.stringify(states),
        );
        assert.deepEqual(
          (await store.listByUser('admin', 'u1', clock.now())).map((x) => x.tokenHash),
          [live[0]?.hash],
        );
      });

      it('replaces nothing without replaceOthers', async () => {
        const { store, clock } = fx();
        const a = await login();
        const b = await login();
        assert.equal(b.replaced, 0);
        assert.equal((await store.getSession('admin', a.hash, clock.now(), null))?.state, 'active');
        assert.equal((await store.listByUser('admin', 'u1', clock.now())).length, 2);
      });

      it('leaves sessions already past expiresAt alone (they still read as expired), and tombstones too', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const expired = await login({ expiresAt: t0 + 1_000 });
        const kicked = await login();
        await store.mark('admin', [kicked.hash], 'kicked-out');
        clock.advance(2_000); // logical time only
        const c = await login({ admission: { kind: 'replace', deviceType: null } });
        assert.equal(c.replaced, 0);
        const got = await store.getSession('admin', expired.hash, clock.now(), null);
        assert.equal(got?.state, 'active');
        assert.deepEqual(await store.getSession('admin', kicked.hash, clock.now(), null), { state: 'kicked-out' });
      });
    });

    describe('listByUser', () => {
      it("returns the user's active sessions of that type, oldest first", async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const second = await login({ createdAt: t0 + 10 });
        const first = await login({ createdAt: t0 });
        await login({ userId: 'u2' });
        await login({ loginType: 'web' });
        const listed = await store.listByUser('admin', 'u1', t0 + 20);
        assert.deepEqual(
          listed.map((s) => s.tokenHash),
          [first.hash, second.hash],
        );
        assert.deepEqual(listed[0]?.record, first.record);
        assert.deepEqual(await store.listByUser('admin', 'nobody', t0), []);
      });

      it('excludes sessions past expiresAt at `now`, and includes sessions without expiry', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const short = await login({ expiresAt: t0 + 1_000 });
        const forever = await login({ expiresAt: null, retentionMs: null });
        const hashes = async (now: number): Promise<string[]> =>
          (await store.listByUser('admin', 'u1', now)).map((s) => s.tokenHash).sort();
        assert.deepEqual(await hashes(t0 + 999), [short.hash, forever.hash].sort());
        assert.deepEqual(await hashes(t0 + 1_000), [forever.hash]);
        assert.deepEqual(await hashes(t0 + 10 * HOUR), [forever.hash]);
      });

      it('excludes deleted and tombstoned sessions and keeps working after pruning them', async () => {
        const { store, clock } = fx();
        const a = await login();
        const b = await login();
        const c = await login();
        await store.deleteSession('admin', a.hash);
        await store.mark('admin', [b.hash], 'replaced');
        assert.deepEqual(
          (await store.listByUser('admin', 'u1', clock.now())).map((s) => s.tokenHash),
          [c.hash],
        );
        // A second listing (after pruning) is the same, and new sessions are indexed again.
        const d = await login();
        assert.deepEqual((await store.listByUser('admin', 'u1', clock.now())).map((s) => s.tokenHash).sort(), [c.hash, d.hash].sort());
      });
    });

    describe('listAll', () => {
      it('lists active sessions of a login type, oldest first, at most `limit`', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const made = [];
        for (let i = 0; i < 5; i++) made.push(await login({ userId: `u${i}`, createdAt: t0 + (5 - i) * 10 }));
        await login({ loginType: 'web' });
        const expected = made
          .slice()
          .reverse()
          .map((m) => m.hash);
        assert.deepEqual(
          (await listAll(store, 'admin', t0 + 100, 10)).map((s) => s.tokenHash),
          expected,
        );
        assert.deepEqual(
          (await listAll(store, 'admin', t0 + 100, 2)).map((s) => s.tokenHash),
          expected.slice(0, 2),
        );
        assert.deepEqual(await listAll(store, 'admin', t0 + 100, 0), []);
        assert.equal((await listAll(store, 'web', t0 + 100, 10)).length, 1);
      });

      it('skips expired, deleted and tombstoned sessions, and still fills the limit', async () => {
        const { store, clock } = fx();
        const t0 = clock.now();
        const expired = await login({ createdAt: t0, expiresAt: t0 + 1_000 });
        const deleted = await login({ createdAt: t0 + 1 });
        const kicked = await login({ createdAt: t0 + 2 });
        const live1 = await login({ createdAt: t0 + 3 });
        const live2 = await login({ createdAt: t0 + 4 });
        await store.deleteSession('admin', deleted.hash);
        await store.mark('admin', [kicked.hash], 'kicked-out');
        const listed = await listAll(store, 'admin', t0 + 2_000, 2);
        assert.deepEqual(
          listed.map((s) => s.tokenHash),
          [live1.hash, live2.hash],
        );
        assert.ok(!listed.some((s) => s.tokenHash === expired.hash));
      });
    });

    describeOnlinePageContract(fx);
    describeSessionPatchContract(fx);
    describeUserPageContract(fx);

    describe('findByTokenId', () => {
      it('finds the hash of an active session by its token id, per login type', async () => {
        const { store } = fx();
        const { hash, record } = await login();
        assert.equal(await store.findByTokenId('admin', record.tokenId), hash);
        assert.equal(await store.findByTokenId('web', record.tokenId), null);
        assert.equal(await store.findByTokenId('admin', 'no-such-id'), null);
      });
    });

    describeSessionAdmissionContract(fx);
    describeHostileStringsContract(fx);
  });
}
