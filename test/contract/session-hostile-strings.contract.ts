/**
 * Records holding hostile strings, in the session-store contract (run on every adapter: memory, Redis standalone,
 * the tagged layout, Sentinel, the cluster, the session cache). A record is whatever a user could put in it: a
 * nickname with a lone UTF-16 surrogate (JSON.stringify writes it as `\ud800`, which JavaScript reads back but
 * Redis's Lua cjson refuses), a User-Agent with `|` and JSON, a username shaped like a tombstone. Whatever a
 * reader takes for an active session, every end (kickout, kick-all, replacement, patch, update) must reach.
 */
import assert from 'node:assert/strict';
import type { SessionStore } from '../../src/application/ports/session-store';
import type { SessionRecord } from '../../src/domain/session';
import type { StoreFixture } from './fixture';
import { makeRecord, newHash } from './session-records';

const HOUR = 3_600_000;

/** Strings a user chooses that end up in a session record. */
const HOSTILE: ReadonlyArray<readonly [string, Partial<SessionRecord['principal']>, Partial<SessionRecord['client']>]> = [
  ['a lone high surrogate in the nickname', { nickname: 'eve\ud800' }, {}],
  ['a lone low surrogate in the nickname', { nickname: '\udc00eve' }, {}],
  ['a reversed surrogate pair in the nickname', { nickname: '\udc00\ud800' }, {}],
  ['a lone surrogate after the text of an escape', { nickname: '\\ud800\ud800\\\\u0041' }, { userAgent: '\\' }],
  ['`|`, JSON and a tombstone in the strings', { username: 'k', nickname: '|0000000000000|x|["k"]' }, { userAgent: '"}]|{"a":1}' }],
];

export function describeHostileStringsContract(fx: () => StoreFixture<SessionStore>): void {
  describe('records holding hostile strings', () => {
    async function login(
      principal: Partial<SessionRecord['principal']>,
      client: Partial<SessionRecord['client']>,
      userId = 'u-hostile',
    ): Promise<{ hash: string; record: SessionRecord }> {
      const { store, clock } = fx();
      const hash = newHash();
      const base = makeRecord({ createdAt: clock.now(), userId });
      const record: SessionRecord = { ...base, principal: { ...base.principal, ...principal }, client: { ...base.client, ...client } };
      await store.create({
        loginType: 'admin',
        tokenHash: hash,
        record,
        retentionMs: 2 * HOUR,
        admission: { kind: 'add' },
        now: clock.now(),
      });
      return { hash, record };
    }

    for (const [what, principal, client] of HOSTILE) {
      it(`${what}: read back as written, kicked out, and ended by a kick-all`, async () => {
        const { store, clock } = fx();
        const { hash, record } = await login(principal, client);
        const got = await store.getSession('admin', hash, clock.now(), HOUR);
        assert.deepEqual(got?.state === 'active' ? got.record : got, record);
        assert.equal(await store.mark('admin', [hash], 'kicked-out'), 1, 'the kickout reaches the session');
        assert.deepEqual(await store.getSession('admin', hash, clock.now(), HOUR), { state: 'kicked-out' });
        const other = await login(principal, client, 'u-hostile-2');
        const listed = (await store.listByUser('admin', 'u-hostile-2', clock.now())).map((s) => s.tokenHash);
        assert.equal(await store.mark('admin', listed, 'kicked-out'), 1, 'the kick-all reaches the session');
        assert.deepEqual(await store.getSession('admin', other.hash, clock.now(), null), { state: 'kicked-out' });
      });

      it(`${what}: patched and updated like any other`, async () => {
        const { store, clock } = fx();
        const { hash, record } = await login(principal, client, 'u-hostile-3');
        const patched = await store.patch('admin', hash, () => ({ authTime: 7 }));
        assert.deepEqual(patched, { ...record, authTime: 7 });
        const demoted: SessionRecord = { ...record, principal: { ...record.principal, roles: [], permissions: [] } };
        assert.equal(await store.update('admin', hash, demoted, 2 * HOUR), true, 'a role change reaches the session');
        const got = await store.getSession('admin', hash, clock.now(), null);
        assert.deepEqual(got?.state === 'active' ? got.record.principal.roles : got, []);
      });
    }

    it("a token hash sharing another's first 32 hex digits (its key id) reads nothing, before and after that one is read", async () => {
      const { store, clock } = fx();
      const { hash } = await login({}, {}, 'u-hostile-5');
      const twin = hash.slice(0, 32) + [...hash.slice(32)].map((c) => (c === '0' ? '1' : '0')).join('');
      assert.equal(await store.getSession('admin', twin, clock.now(), null), null);
      assert.equal((await store.getSession('admin', hash, clock.now(), null))?.state, 'active');
      assert.equal((await store.getSession('admin', hash, clock.now(), HOUR))?.state, 'active');
      assert.equal(await store.getSession('admin', twin, clock.now(), null), null, 'not from a cached read of the other');
      assert.equal(await store.getSession('admin', twin, clock.now(), HOUR), null, 'not from a cached read of the other (idle limit)');
      assert.equal(await store.deleteSession('admin', twin), false, 'a logout of the twin leaves the session');
      assert.equal((await store.getSession('admin', hash, clock.now(), null))?.state, 'active');
    });

    it('a replacing login (is-concurrent=false) ends a session with a lone surrogate', async () => {
      const { store, clock } = fx();
      const { hash } = await login({ nickname: 'eve\ud800' }, {}, 'u-hostile-4');
      const next = newHash();
      const record = makeRecord({ createdAt: clock.now(), userId: 'u-hostile-4' });
      const res = await store.create({
        loginType: 'admin',
        tokenHash: next,
        record,
        retentionMs: 2 * HOUR,
        admission: { kind: 'replace', deviceType: null },
        now: clock.now(),
      });
      assert.deepEqual(
        res.ended.map((e) => e.tokenHash),
        [hash],
      );
      assert.deepEqual(await store.getSession('admin', hash, clock.now(), null), { state: 'replaced' });
    });
  });
}
