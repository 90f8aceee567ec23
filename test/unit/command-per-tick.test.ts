/** The session reads of one tick leave as one command (src/adapters/redis/command-per-tick.ts). */
import assert from 'node:assert/strict';
import { CommandPerTick } from '../../src/adapters/redis/command-per-tick';

/** A sender that answers `v:<item>` for each item (or fails, or answers too few), and records each call. */
function sender(mode: 'ok' | 'fail' | 'short' = 'ok'): { send: (items: readonly string[]) => Promise<string[]>; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    send: async (items) => {
      calls.push([...items]);
      if (mode === 'fail') throw new Error('connection lost');
      const out = items.map((i) => `v:${i}`);
      return mode === 'short' ? out.slice(1) : out;
    },
  };
}

describe('CommandPerTick: the session reads of one tick as one command', () => {
  it('items asked for in one tick leave as one command; each caller gets its own answer', async () => {
    const s = sender();
    const batch = new CommandPerTick(s.send);
    const got = await Promise.all([batch.run('a'), batch.run('b'), batch.run('c')]);
    assert.deepEqual(s.calls, [['a', 'b', 'c']]);
    assert.deepEqual(got, ['v:a', 'v:b', 'v:c']);
  });

  it('items of different ticks are different commands', async () => {
    const s = sender();
    const batch = new CommandPerTick(s.send);
    assert.equal(await batch.run('a'), 'v:a');
    assert.equal(await batch.run('b'), 'v:b');
    assert.deepEqual(s.calls, [['a'], ['b']]);
  });

  it('a full batch is sent, and the rest start a new one', async () => {
    const s = sender();
    const batch = new CommandPerTick(s.send, 2);
    const got = await Promise.all([batch.run('a'), batch.run('b'), batch.run('c')]);
    assert.deepEqual(s.calls, [['a', 'b'], ['c']]);
    assert.deepEqual(got, ['v:a', 'v:b', 'v:c']);
  });

  it('a failed command rejects every item of its batch; the next tick goes on', async () => {
    const failing = sender('fail');
    const batch = new CommandPerTick(failing.send);
    const results = await Promise.allSettled([batch.run('a'), batch.run('b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(failing.calls.length, 1);
  });

  it('an Error in one item’s place fails that item only', async () => {
    const batch = new CommandPerTick<string, string>(async (items) =>
      items.map((i) => (i === 'b' ? (new Error('WRONGTYPE') as unknown as string) : `v:${i}`)),
    );
    const results = await Promise.allSettled([batch.run('a'), batch.run('b'), batch.run('c')]);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : `rejected: ${(r.reason as Error).message}`)),
      ['v:a', 'rejected: WRONGTYPE', 'v:c'],
    );
  });

  it('an answer with the wrong number of results rejects every item (no caller gets another’s answer)', async () => {
    const short = sender('short');
    const batch = new CommandPerTick(short.send);
    const results = await Promise.allSettled([batch.run('a'), batch.run('b')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
  });
});
