/** The memory session store's building blocks: OrderedIndex (chunked, by position), SweepQueue and LoopPacer. */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { OrderedIndex } from '../../src/adapters/memory/online-index';
import { LoopPacer, SweepQueue } from '../../src/adapters/memory/expiring-map';

interface Item {
  readonly key: number;
  slot: number;
}
const byKey = (a: Item, b: Item): number => a.key - b.key;

/** A deterministic pseudo-random sequence (the test repeats). */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function page(index: OrderedIndex<Item>, offset: number, limit: number): number[] {
  const out: number[] = [];
  index.walk(offset, (e) => {
    if (out.length >= limit) return 'stop';
    out.push(e.key);
    return 'next';
  });
  return out;
}

describe('memory store: OrderedIndex', () => {
  it('matches a sorted array through appends, out-of-order inserts and deletes, page by page at any offset', () => {
    const random = rng(7);
    const index = new OrderedIndex<Item>(byKey);
    const reference: Item[] = [];
    for (let i = 0; i < 5_000; i++) {
      const roll = random();
      if (roll < 0.6) {
        const item = { key: roll < 0.5 ? i * 10 : Math.floor(random() * i * 10) * 2 + 1 + i * 1e-6, slot: -1 };
        index.add(item);
        reference.push(item);
      } else if (reference.length > 0) {
        const [gone] = reference.splice(Math.floor(random() * reference.length), 1);
        assert.equal(index.delete(gone as Item), true);
        assert.equal(index.delete(gone as Item), false, 'a second delete finds nothing');
      }
    }
    reference.sort(byKey);
    assert.equal(index.size, reference.length);
    assert.deepEqual(
      index.toArray().map((e) => e.key),
      reference.map((e) => e.key),
    );
    for (const offset of [0, 1, 255, 256, 257, 1000, reference.length - 3, reference.length, reference.length + 5]) {
      assert.deepEqual(
        page(index, offset, 20),
        reference.slice(offset, offset + 20).map((e) => e.key),
        `offset ${offset}`,
      );
    }
  });

  it('a walk drops what it is told to and goes on; adding the same entry twice keeps one', () => {
    const index = new OrderedIndex<Item>(byKey);
    const items = Array.from({ length: 1_000 }, (_, i) => ({ key: i, slot: -1 }));
    for (const item of items) index.add(item);
    index.add(items[500] as Item);
    assert.equal(index.size, 1_000);
    index.walk(0, (e) => (e.key % 2 === 0 ? 'drop' : 'next'));
    assert.equal(index.size, 500);
    assert.deepEqual(page(index, 0, 3), [1, 3, 5]);
    assert.deepEqual(page(index, 499, 3), [999]);
    assert.equal(index.first()?.key, 1);
  });

  it('reaches a deep page without looking at the entries before it', () => {
    const index = new OrderedIndex<Item>(byKey);
    for (let i = 0; i < 200_000; i++) index.add({ key: i, slot: -1 });
    let visited = 0;
    const started = performance.now();
    index.walk(150_000, () => (++visited > 20 ? 'stop' : 'next'));
    assert.equal(visited, 21);
    assert.ok(performance.now() - started < 20, 'a walk to position 150,000 takes well under 20 ms');
  });
});

describe('memory store: SweepQueue', () => {
  it('hands over only what is due, each entry once, within the budget, and keeps the rest', () => {
    const queue = new SweepQueue<Item>();
    const items = Array.from({ length: 10 }, (_, i) => ({ key: i, slot: -1 }));
    for (const item of items) queue.schedule(item, item.key * 10_000);
    queue.schedule(items[9] as Item, 1_000); // earlier: moved
    queue.schedule(items[0] as Item, 500_000); // later: moved too
    const seen: number[] = [];
    assert.equal(
      queue.drain(55_000, 3, (e) => {
        seen.push(e.key);
        return null;
      }),
      true,
    );
    assert.equal(seen.length, 3);
    queue.drain(55_000, Infinity, (e) => {
      seen.push(e.key);
      return e.key === 5 ? 55_500 : null; // not yet: back in its slot
    });
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 9],
    );
    const late: number[] = [];
    queue.drain(600_000, Infinity, (e) => {
      late.push(e.key);
      return null;
    });
    assert.deepEqual(
      late.sort((a, b) => a - b),
      [0, 5, 6, 7, 8],
    );
    assert.equal(queue.size, 0);
  });
});

describe('memory store: SweepQueue, what goes leaves at once', () => {
  it('a removed entry, or one queued for never, holds no place; one queued again moves', () => {
    const queue = new SweepQueue<Item>();
    const [a, b] = [
      { key: 1, slot: -1 },
      { key: 2, slot: -1 },
    ];
    queue.schedule(a, 30_000);
    queue.schedule(b, 30_000);
    queue.schedule(b, 90_000);
    assert.equal(queue.size, 2);
    queue.remove(a);
    queue.schedule(b, null);
    assert.equal(queue.size, 0);
    assert.equal(
      queue.drain(1e9, Infinity, () => null),
      false,
    );
  });
});

describe('memory store: LoopPacer', () => {
  it('lets the event loop turn once its callers have run 10 ms in one turn', async () => {
    const pacer = new LoopPacer();
    let ticked = false;
    setImmediate(() => {
      ticked = true;
    });
    const started = performance.now();
    let waited = 0;
    while (performance.now() - started < 30 && !ticked) {
      const wait = pacer.pace();
      if (wait) {
        waited++;
        await wait;
      }
    }
    assert.ok(ticked, 'the immediate ran while the loop went on');
    assert.ok(waited >= 1);
  });

  it('a fan-out (calls started at once, as Promise.all does) goes on over several turns, each call once', async () => {
    const pacer = new LoopPacer();
    let turns = 0;
    let done = false;
    const ticker = (): void => {
      turns++;
      if (!done) setImmediate(ticker);
    };
    setImmediate(ticker);
    let ran = 0;
    const call = async (): Promise<void> => {
      const wait = pacer.pace();
      if (wait) await wait;
      const until = performance.now() + 0.05; // 50 µs of work, 5,000 times: 250 ms in all
      while (performance.now() < until);
      ran++;
    };
    await Promise.all(Array.from({ length: 5_000 }, call));
    done = true;
    assert.equal(ran, 5_000);
    assert.ok(turns >= 10, `the event loop turned ${turns} times meanwhile`);
  });
});
