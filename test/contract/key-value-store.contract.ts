/** The KeyValueStore contract, written once and run against every adapter (see stores.test.ts). */
import assert from 'node:assert/strict';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import { type MakeFixture, useFixture } from './fixture';

export function describeKeyValueStoreContract(name: string, makeFixture: MakeFixture<KeyValueStore>): void {
  describe(`KeyValueStore contract: ${name}`, () => {
    const fx = useFixture(makeFixture);

    describe('get / set / delete', () => {
      it('reads null for a missing key, then what was set, last write wins', async () => {
        const { store } = fx();
        assert.equal(await store.get('k'), null);
        await store.set('k', 'v1', null);
        assert.equal(await store.get('k'), 'v1');
        await store.set('k', 'v2', 60_000);
        assert.equal(await store.get('k'), 'v2');
      });

      it('expires a value after its TTL; a null TTL never expires', async () => {
        const { store, elapse } = fx();
        await store.set('short', 'x', 40);
        await store.set('forever', 'y', null);
        await elapse(80);
        assert.equal(await store.get('short'), null);
        assert.equal(await store.get('forever'), 'y');
      });

      it('delete reports whether a key was removed', async () => {
        const { store } = fx();
        await store.set('k', 'v', null);
        assert.equal(await store.delete('k'), true);
        assert.equal(await store.get('k'), null);
        assert.equal(await store.delete('k'), false);
      });
    });

    describe('setIfAbsent', () => {
      it('creates only when absent and never overwrites', async () => {
        const { store } = fx();
        assert.equal(await store.setIfAbsent('lock', 'a', 60_000), true);
        assert.equal(await store.setIfAbsent('lock', 'b', 60_000), false);
        assert.equal(await store.get('lock'), 'a');
      });

      it('is free again once the TTL has passed', async () => {
        const { store, elapse } = fx();
        assert.equal(await store.setIfAbsent('nonce', 'a', 40), true);
        await elapse(80);
        assert.equal(await store.setIfAbsent('nonce', 'b', 40), true);
        assert.equal(await store.get('nonce'), 'b');
      });

      it('of 50 concurrent callers exactly one wins', async () => {
        const { store } = fx();
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.setIfAbsent('race', `v${i}`, 60_000)));
        assert.equal(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        assert.equal(await store.get('race'), `v${winner}`);
      });
    });

    describe('getAndDelete', () => {
      it('returns the value once, then null', async () => {
        const { store } = fx();
        await store.set('captcha', '42', 60_000);
        assert.equal(await store.getAndDelete('captcha'), '42');
        assert.equal(await store.getAndDelete('captcha'), null);
        assert.equal(await store.get('captcha'), null);
      });

      it('of 20 concurrent callers exactly one gets the value', async () => {
        const { store } = fx();
        await store.set('refresh', 'token-family-1', 60_000);
        const results = await Promise.all(Array.from({ length: 20 }, () => store.getAndDelete('refresh')));
        assert.deepEqual(
          results.filter((r) => r !== null),
          ['token-family-1'],
        );
      });
    });

    describe('setMany', () => {
      it('writes every entry with its own TTL', async () => {
        const { store, elapse } = fx();
        await store.set('c', 'old', null);
        await store.setMany([
          { key: 'a', value: '1', ttlMs: 40 },
          { key: 'b', value: '2', ttlMs: 60_000 },
          { key: 'c', value: '3', ttlMs: 60_000 },
        ]);
        assert.deepEqual([await store.get('a'), await store.get('b'), await store.get('c')], ['1', '2', '3']);
        await elapse(80);
        assert.deepEqual(
          [await store.get('a'), await store.get('b'), await store.get('c')],
          [null, '2', '3'],
          'each TTL is its own; an older value is replaced with its TTL',
        );
        await store.setMany([]);
        assert.equal(await store.get('b'), '2', 'an empty batch writes nothing');
      });

      it('readers racing a batch about one subject see all of it or none of it', async () => {
        const { store } = fx();
        const entries = ['rt', 'rtused', 'rtfam'].map((ns, i) => ({ key: `${ns}:admin:h1`, value: `v${i}`, ttlMs: 60_000 }));
        const read = () => Promise.all(entries.map((e) => store.get(e.key)));
        const [, ...snapshots] = await Promise.all([store.setMany(entries), ...Array.from({ length: 20 }, read)]);
        for (const seen of snapshots) {
          const present = seen.filter((v) => v !== null).length;
          assert.ok(present === 0 || present === entries.length, `a partial batch was visible: ${JSON.stringify(seen)}`);
        }
        assert.deepEqual(await read(), ['v0', 'v1', 'v2']);
      });

      it('readers racing a batch over several subjects see a prefix of it, in order', async () => {
        const { store } = fx();
        const entries = ['rtfam:admin:f1', 'rtacc:admin:a1', 'rt:admin:h1'].map((key, i) => ({ key, value: `v${i}`, ttlMs: 60_000 }));
        const read = () => Promise.all(entries.map((e) => store.get(e.key)));
        const [, ...snapshots] = await Promise.all([store.setMany(entries), ...Array.from({ length: 20 }, read)]);
        for (const seen of snapshots) {
          const present = seen.filter((v) => v !== null).length;
          assert.ok(
            seen.slice(0, present).every((v) => v !== null),
            `a later entry was visible before an earlier one: ${JSON.stringify(seen)}`,
          );
        }
        assert.deepEqual(await read(), ['v0', 'v1', 'v2']);
      });

      it('of concurrent batches over the same keys of one subject, one wins every key (never a mix)', async () => {
        const { store } = fx();
        const keys = ['rt:admin:h1', 'rtused:admin:h1', 'rtfam:admin:h1'];
        await Promise.all(Array.from({ length: 20 }, (_, i) => store.setMany(keys.map((key) => ({ key, value: `w${i}`, ttlMs: 60_000 })))));
        const held = await Promise.all(keys.map((k) => store.get(k)));
        assert.equal(new Set(held).size, 1, `keys written by different batches: ${JSON.stringify(held)}`);
      });
    });

    describe('deleteIfEqualsAndSet', () => {
      it('while the key holds the expected value: deletes it and writes the next key with its TTL', async () => {
        const { store, elapse } = fx();
        const next = { key: 'used', value: 'marker', ttlMs: 40 };
        assert.equal(await store.deleteIfEqualsAndSet('token', 'rec', next), false);
        assert.equal(await store.get('used'), null, 'nothing written when the key is absent');
        await store.set('token', 'rec', 60_000);
        assert.equal(await store.deleteIfEqualsAndSet('token', 'other', next), false);
        assert.equal(await store.get('token'), 'rec');
        assert.equal(await store.get('used'), null, 'nothing written when the value differs');
        assert.equal(await store.deleteIfEqualsAndSet('token', 'rec', next), true);
        assert.equal(await store.get('token'), null);
        assert.equal(await store.get('used'), 'marker');
        assert.equal(await store.deleteIfEqualsAndSet('token', 'rec', next), false, 'only once');
        await elapse(80);
        assert.equal(await store.get('used'), null, 'the next key has its TTL');
      });

      it('of 20 concurrent callers exactly one succeeds, and whoever sees the key gone sees the marker', async () => {
        const { store } = fx();
        await store.set('token', 'rec', 60_000);
        const attempt = async (i: number) => {
          const won = await store.deleteIfEqualsAndSet('token', 'rec', { key: 'used', value: `by${i}`, ttlMs: 60_000 });
          const [token, used] = [await store.get('token'), await store.get('used')];
          return { won, token, used };
        };
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
        const winners = results.map((r, i) => (r.won ? i : -1)).filter((i) => i >= 0);
        assert.equal(winners.length, 1);
        for (const r of results)
          assert.ok(r.token !== null || r.used === `by${winners[0]}`, `the key was gone without its marker: ${JSON.stringify(r)}`);
      });
    });

    describe('deleteIfEquals', () => {
      it('deletes only while the key holds the expected value', async () => {
        const { store } = fx();
        await store.set('lock', 'owner-a', 60_000);
        assert.equal(await store.deleteIfEquals('lock', 'owner-b'), false);
        assert.equal(await store.get('lock'), 'owner-a');
        assert.equal(await store.deleteIfEquals('lock', 'owner-a'), true);
        assert.equal(await store.get('lock'), null);
        assert.equal(await store.deleteIfEquals('lock', 'owner-a'), false);
      });
    });

    describe('setIfAbsentOrGet', () => {
      it('stores when absent (null), otherwise returns the held value and changes nothing', async () => {
        const { store } = fx();
        assert.equal(await store.setIfAbsentOrGet('idem', 'first', 60_000), null);
        assert.equal(await store.setIfAbsentOrGet('idem', 'second', 60_000), 'first');
        assert.equal(await store.get('idem'), 'first');
      });

      it('is free again after the TTL', async () => {
        const { store, elapse } = fx();
        assert.equal(await store.setIfAbsentOrGet('idem', 'a', 40), null);
        await elapse(80);
        assert.equal(await store.setIfAbsentOrGet('idem', 'b', 40), null);
        assert.equal(await store.get('idem'), 'b');
      });

      it('of 50 concurrent callers exactly one stores; the others see its value', async () => {
        const { store } = fx();
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.setIfAbsentOrGet('race', `v${i}`, 60_000)));
        const winners = results.map((r, i) => (r === null ? i : -1)).filter((i) => i >= 0);
        assert.equal(winners.length, 1);
        const held = `v${winners[0]}`;
        assert.ok(results.every((r) => r === null || r === held));
        assert.equal(await store.get('race'), held);
      });
    });

    describe('replaceIfEquals', () => {
      it('replaces value and TTL only while the key holds the expected value', async () => {
        const { store, elapse } = fx();
        assert.equal(await store.replaceIfEquals('rec', 'x', 'y', 60_000), false);
        assert.equal(await store.get('rec'), null, 'never creates');
        await store.set('rec', 'pending', 40);
        assert.equal(await store.replaceIfEquals('rec', 'other', 'done', 60_000), false);
        assert.equal(await store.get('rec'), 'pending');
        assert.equal(await store.replaceIfEquals('rec', 'pending', 'done', 60_000), true);
        await elapse(80);
        assert.equal(await store.get('rec'), 'done', 'the new TTL replaced the old one');
      });
    });

    describe('increment', () => {
      it('counts from 1 and reports the TTL set at creation', async () => {
        const { store } = fx();
        const first = await store.increment('fails', 60_000);
        assert.equal(first.count, 1);
        assert.ok(first.ttlMs > 59_000 && first.ttlMs <= 60_000, `ttl ${first.ttlMs}`);
        assert.equal((await store.increment('fails', 60_000)).count, 2);
        assert.equal((await store.increment('fails', 60_000)).count, 3);
      });

      it('does not extend the TTL on later increments; a new counter starts after expiry', async () => {
        const { store, elapse } = fx();
        await store.increment('c', 100);
        await elapse(25);
        const second = await store.increment('c', 100);
        assert.equal(second.count, 2);
        assert.ok(second.ttlMs > 0 && second.ttlMs <= 76, `ttl must not be extended, got ${second.ttlMs}`);
        await elapse(90);
        const fresh = await store.increment('c', 100);
        assert.equal(fresh.count, 1);
        assert.ok(fresh.ttlMs > 75, `fresh counter ttl ${fresh.ttlMs}`);
      });

      it('gives every concurrent caller a distinct count', async () => {
        const { store } = fx();
        const results = await Promise.all(Array.from({ length: 30 }, () => store.increment('n', 60_000)));
        assert.deepEqual(
          results.map((r) => r.count).sort((a, b) => a - b),
          Array.from({ length: 30 }, (_, i) => i + 1),
        );
      });
    });
  });
}
