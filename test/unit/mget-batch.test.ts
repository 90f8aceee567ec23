/** The session reads of one tick leave as one MGET (src/adapters/redis/mget-batch.ts). */
import assert from 'node:assert/strict';
import type Redis from 'ioredis';
import { MgetBatch } from '../../src/adapters/redis/mget-batch';

/** A client whose MGET answers `v:<key>` (or fails), and records each call's keys. */
function fakeClient(fail = false): { client: Redis; calls: string[][] } {
  const calls: string[][] = [];
  const client = {
    mget: async (keys: string[]) => {
      calls.push([...keys]);
      if (fail) throw new Error('connection lost');
      return keys.map((k) => (k.startsWith('missing') ? null : `v:${k}`));
    },
  } as unknown as Redis;
  return { client, calls };
}

describe('MgetBatch: the session reads of one tick as one MGET', () => {
  it('reads asked for in one tick leave as one MGET; each caller gets its own keys’ values, in order', async () => {
    const { client, calls } = fakeClient();
    const batch = new MgetBatch(client);
    const got = await Promise.all([batch.read(['s1', 'a1']), batch.read(['missing-s2', 'a2']), batch.read(['s3', 'a3'])]);
    assert.deepEqual(calls, [['s1', 'a1', 'missing-s2', 'a2', 's3', 'a3']]);
    assert.deepEqual(got, [
      ['v:s1', 'v:a1'],
      [null, 'v:a2'],
      ['v:s3', 'v:a3'],
    ]);
  });

  it('reads of different ticks are different MGETs', async () => {
    const { client, calls } = fakeClient();
    const batch = new MgetBatch(client);
    await batch.read(['s1', 'a1']);
    await batch.read(['s2', 'a2']);
    assert.deepEqual(calls, [
      ['s1', 'a1'],
      ['s2', 'a2'],
    ]);
  });

  it('a batch that would pass the key limit is sent, and the rest start a new one', async () => {
    const { client, calls } = fakeClient();
    const batch = new MgetBatch(client, 4);
    const got = await Promise.all([batch.read(['s1', 'a1']), batch.read(['s2', 'a2']), batch.read(['s3', 'a3'])]);
    assert.deepEqual(calls, [
      ['s1', 'a1', 's2', 'a2'],
      ['s3', 'a3'],
    ]);
    assert.deepEqual(got[2], ['v:s3', 'v:a3']);
  });

  it('a failed MGET rejects every read of its batch, and the next tick’s reads go on', async () => {
    const failing = fakeClient(true);
    const batch = new MgetBatch(failing.client);
    const results = await Promise.allSettled([batch.read(['s1', 'a1']), batch.read(['s2', 'a2'])]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(failing.calls.length, 1);
  });
});
