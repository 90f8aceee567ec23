/**
 * The SessionStore contract's admissions (part of describeSessionStoreContract, so it runs on every
 * adapter and Redis topology): device types, the replaced range, both exit modes of
 * is-concurrent=false and the cap on concurrent sessions with each overflow state, exact under
 * concurrency, across two instances where the adapter has them (the fixture's twin).
 */
import assert from 'node:assert/strict';
import type { Admission, CreateSessionResult, SessionStore } from '../../src/application/ports/session-store';
import type { TombstoneState } from '../../src/domain/session';
import type { LoginType } from '../../src/domain/login-type';
import type { StoreFixture } from './fixture';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;
const ADD: Admission = { kind: 'add' };

interface Login {
  readonly hash: string;
  readonly result: CreateSessionResult;
}

export function describeSessionAdmissionContract(fx: () => StoreFixture<SessionStore>): void {
  /** Creates a session of `userId` at the clock's now, on `store` (default: the fixture's). */
  async function login(
    admission: Admission,
    opts: { deviceType?: string; userId?: string; store?: SessionStore; expiresAt?: number; loginType?: LoginType } = {},
  ): Promise<Login> {
    const { store, clock } = fx();
    const now = clock.now();
    const hash = newHash();
    const record = makeRecord({
      userId: opts.userId ?? 'u1',
      createdAt: now,
      ...(opts.loginType !== undefined ? { loginType: opts.loginType } : {}),
      ...(opts.deviceType !== undefined ? { deviceType: opts.deviceType } : {}),
      ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}),
    });
    const result = await (opts.store ?? store).create({
      loginType: opts.loginType ?? 'admin',
      tokenHash: hash,
      record,
      retentionMs: 2 * HOUR,
      admission,
      now,
    });
    return { hash, result };
  }
  const state = async (hash: string): Promise<string | undefined> =>
    (await fx().store.getSession('admin', hash, fx().clock.now(), null))?.state;
  const listed = async (userId = 'u1'): Promise<string[]> =>
    (await fx().store.listByUser('admin', userId, fx().clock.now())).map((s) => s.tokenHash).sort();
  /** The fixture's instances: the store and its twin (another process's), or the store twice. */
  const instances = (): SessionStore[] => [fx().store, fx().twin ?? fx().store];

  describe('admission: device types and the replaced range', () => {
    it('keeps the device type on the record', async () => {
      const a = await login(ADD, { deviceType: 'APP' });
      const got = await fx().store.getSession('admin', a.hash, fx().clock.now(), null);
      assert.equal(got?.state === 'active' ? got.record.deviceType : null, 'APP');
    });

    it('replace of one device type ends only the sessions of that type, and lists what it ended', async () => {
      const pc = await login(ADD, { deviceType: 'PC' });
      const app = await login(ADD, { deviceType: 'APP' });
      const none = await login(ADD);
      const otherUser = await login(ADD, { deviceType: 'PC', userId: 'u2' });
      const pc2 = await login({ kind: 'replace', deviceType: 'PC' }, { deviceType: 'PC' });
      assert.equal(pc2.result.outcome, 'created');
      assert.deepEqual(
        pc2.result.ended.map((e) => [e.tokenHash, e.record?.tokenId !== undefined]),
        [[pc.hash, true]],
      );
      assert.equal(await state(pc.hash), 'replaced');
      assert.equal(await state(app.hash), 'active');
      assert.equal(await state(none.hash), 'active', 'a session without a device type is of the default one, DEF');
      assert.equal(await state(otherUser.hash), 'active');
      assert.deepEqual(await listed(), [app.hash, none.hash, pc2.hash].sort());
      const def = await login({ kind: 'replace', deviceType: 'DEF' }, { deviceType: 'DEF' });
      assert.deepEqual(
        def.result.ended.map((e) => e.tokenHash),
        [none.hash],
      );
    });

    it('replace of every device type ends them all', async () => {
      const pc = await login(ADD, { deviceType: 'PC' });
      const app = await login(ADD, { deviceType: 'APP' });
      const h5 = await login({ kind: 'replace', deviceType: null }, { deviceType: 'H5' });
      assert.equal(h5.result.ended.length, 2);
      assert.equal(await state(pc.hash), 'replaced');
      assert.equal(await state(app.hash), 'replaced');
      assert.deepEqual(await listed(), [h5.hash]);
    });

    it('of concurrent logins replacing their own device type, exactly one per device type stays, across instances', async () => {
      const stores = instances();
      const logins = await Promise.all(
        Array.from({ length: 24 }, (_, i) => {
          const deviceType = i % 2 === 0 ? 'PC' : 'APP';
          return login({ kind: 'replace', deviceType }, { deviceType, store: stores[i % 2] });
        }),
      );
      const states = await Promise.all(logins.map((l) => state(l.hash)));
      const live = logins.filter((_, i) => states[i] === 'active');
      assert.equal(live.length, 2, `live after the race: ${live.length}`);
      assert.ok(states.every((s) => s === 'active' || s === 'replaced'));
      const types = await Promise.all(
        live.map(
          async (l) =>
            (await fx().store.listByUser('admin', 'u1', fx().clock.now())).find((s) => s.tokenHash === l.hash)?.record.deviceType,
        ),
      );
      assert.deepEqual(types.sort(), ['APP', 'PC']);
      assert.deepEqual(await listed(), live.map((l) => l.hash).sort());
    });
  });

  describe('admission: exclusive (NEW_DEVICE)', () => {
    it('refuses while the user has a current session, writing nothing; the others stay', async () => {
      const first = await login({ kind: 'exclusive', deviceType: null }, { deviceType: 'PC' });
      assert.equal(first.result.outcome, 'created');
      const second = await login({ kind: 'exclusive', deviceType: null }, { deviceType: 'APP' });
      assert.deepEqual(second.result, { outcome: 'refused', ended: [] });
      assert.equal(await state(second.hash), undefined);
      assert.equal(await state(first.hash), 'active');
      assert.deepEqual(await listed(), [first.hash]);
    });

    it('with a device type, only a current session of that type refuses', async () => {
      const pc = await login(ADD, { deviceType: 'PC' });
      const app = await login({ kind: 'exclusive', deviceType: 'APP' }, { deviceType: 'APP' });
      assert.equal(app.result.outcome, 'created');
      const pc2 = await login({ kind: 'exclusive', deviceType: 'PC' }, { deviceType: 'PC' });
      assert.equal(pc2.result.outcome, 'refused');
      assert.deepEqual(await listed(), [pc.hash, app.hash].sort());
    });

    it('admits once the sessions there were are logged out, ended or expired; another user or login type never refuses', async () => {
      const { store, clock } = fx();
      const out = await login(ADD);
      await store.deleteSession('admin', out.hash);
      const kicked = await login(ADD);
      await store.mark('admin', [kicked.hash], 'kicked-out');
      await login(ADD, { expiresAt: clock.now() + 1000 });
      await login(ADD, { userId: 'u2' });
      await login(ADD, { loginType: 'web' });
      clock.advance(2000);
      const next = await login({ kind: 'exclusive', deviceType: null });
      assert.equal(next.result.outcome, 'created');
      assert.deepEqual(await listed(), [next.hash]);
    });

    it('of concurrent logins with none live, exactly one is created, across instances', async () => {
      const stores = instances();
      const logins = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login({ kind: 'exclusive', deviceType: null }, { store: stores[i % 2], deviceType: 'PC' })),
      );
      const created = logins.filter((l) => l.result.outcome === 'created');
      assert.equal(created.length, 1);
      assert.equal(logins.filter((l) => l.result.outcome === 'refused').length, 19);
      assert.deepEqual(await listed(), [created[0]?.hash]);
    });
  });

  describe('admission: the cap on concurrent sessions', () => {
    for (const ending of ['logged-out', 'kicked-out', 'replaced'] as const satisfies readonly TombstoneState[]) {
      it(`ends the oldest beyond the cap as ${ending}; the newest stay and are the ones listed`, async () => {
        const cap: Admission = { kind: 'cap', max: 3, state: ending };
        const logins: Login[] = [];
        for (let i = 0; i < 5; i++) {
          logins.push(await login(cap, { deviceType: i % 2 === 0 ? 'PC' : 'APP' }));
          fx().clock.advance(1);
        }
        assert.deepEqual(
          logins.map((l) => l.result.ended.map((e) => e.tokenHash)),
          [[], [], [], [logins[0]?.hash], [logins[1]?.hash]],
        );
        assert.equal(logins[3]?.result.ended[0]?.record?.tokenId !== undefined, true, 'the ended record comes back');
        assert.equal(await state(logins[0]?.hash ?? ''), ending);
        assert.equal(await state(logins[1]?.hash ?? ''), ending);
        assert.deepEqual(
          await listed(),
          logins
            .slice(2)
            .map((l) => l.hash)
            .sort(),
        );
        assert.equal(
          await fx().store.findByTokenId('admin', (await fx().store.listByUser('admin', 'u1', fx().clock.now()))[0]?.record.tokenId ?? ''),
          logins[2]?.hash,
        );
      });
    }

    it('counts only current sessions of the user and login type', async () => {
      const { store, clock } = fx();
      const cap: Admission = { kind: 'cap', max: 2, state: 'logged-out' };
      await login(ADD, { expiresAt: clock.now() + 1000 });
      const kicked = await login(ADD);
      await store.mark('admin', [kicked.hash], 'kicked-out');
      await login(ADD, { userId: 'u2' });
      await login(ADD, { loginType: 'web' });
      clock.advance(2000);
      const a = await login(cap);
      const b = await login(cap);
      assert.deepEqual([a.result.ended, b.result.ended], [[], []]);
      assert.deepEqual(await listed(), [a.hash, b.hash].sort());
    });

    it('of 50 concurrent logins with a cap of 5, exactly 5 stay live, across instances; every other token reads as ended', async () => {
      const stores = instances();
      const cap: Admission = { kind: 'cap', max: 5, state: 'kicked-out' };
      const logins = await Promise.all(Array.from({ length: 50 }, (_, i) => login(cap, { store: stores[i % 2] })));
      const states = await Promise.all(logins.map((l) => state(l.hash)));
      const live = logins.filter((_, i) => states[i] === 'active');
      assert.equal(live.length, 5, `live after the race: ${live.length}`);
      assert.ok(
        states.every((s) => s === 'active' || s === 'kicked-out'),
        JSON.stringify(states),
      );
      assert.deepEqual(await listed(), live.map((l) => l.hash).sort());
      assert.ok(logins.every((l) => l.result.outcome !== 'refused'));
      // The next login still ends exactly one: the index holds no leftover of the race.
      const next = await login(cap);
      assert.equal(next.result.ended.length, 1);
      assert.equal((await listed()).length, 5);
    });
  });
}
