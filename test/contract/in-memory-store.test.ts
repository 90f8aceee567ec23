/** InMemoryBackend housekeeping (memory only): expired entries are evicted without being read. */
import assert from 'node:assert/strict';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { FakeClock } from '../support/fake-clock';
import { sleep } from './fixture';
import { makeRecord, newHash } from './session-store.contract';

/** Fills a store with one of everything, all with a 1 s TTL (rate-limit window 1 s). */
async function fill(store: InMemoryBackend, clock: FakeClock): Promise<void> {
  const now = clock.now();
  for (let i = 0; i < 3; i++) {
    await store.sessions.create({
      loginType: 'admin',
      tokenHash: newHash(),
      record: makeRecord({ userId: `u${i}`, createdAt: now }),
      retentionMs: 1_000,
      admission: { kind: 'add' },
      now,
    });
  }
  const kicked = newHash();
  await store.sessions.create({
    loginType: 'web',
    tokenHash: kicked,
    record: makeRecord({ loginType: 'web', createdAt: now }),
    retentionMs: 1_000,
    admission: { kind: 'add' },
    now,
  });
  await store.sessions.mark('web', [kicked], 'kicked-out');
  await store.kv.set('captcha:1', 'x', 1_000);
  await store.kv.setIfAbsent('lock:1', 'me', 1_000);
  await store.kv.increment('fails:1', 1_000);
  await store.rateLimits.hit('ip:1', 5, 1_000, now);
  await store.lists.append('orders:1', 'x', 10, 1_000);
  await store.captchas.save('admin', 'c1', { answer: 'x', expiresAt: now + 1_000 }, 1_000);
}

describe('InMemoryBackend housekeeping', () => {
  it('sweep() evicts every expired entry and its index entries: size() returns to 0', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
    await fill(store, clock);
    const full = store.size();
    assert.ok(full > 0);

    clock.advance(999);
    store.sweep();
    assert.equal(store.size(), full, 'nothing is evicted before its TTL');

    clock.advance(1);
    store.sweep();
    assert.equal(store.size(), 0);
    await store.close();
  });

  it('size() counts every store, captcha answers included', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
    await store.captchas.save('admin', 'c1', { answer: 'x', expiresAt: clock.now() + 1_000 }, 1_000);
    assert.equal(store.size(), 1);
    await store.captchas.take('admin', 'c1');
    assert.equal(store.size(), 0);
    await store.close();
  });

  it('keeps entries without TTL and the live part of a rate-limit log', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
    await store.kv.set('forever', 'v', null);
    await store.rateLimits.hit('ip', 5, 10_000, clock.now());
    clock.advance(5_000);
    store.sweep();
    assert.equal(store.size(), 2);
    assert.equal(await store.kv.get('forever'), 'v');
    clock.advance(5_000);
    store.sweep();
    assert.equal(store.size(), 1, 'the rate-limit log is dropped once its window has passed');
    await store.close();
  });

  it('sweeps on its own with the interval timer, and close() stops the timer', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 5 });
    await fill(store, clock);
    clock.advance(1_000);
    await sleep(30);
    assert.equal(store.size(), 0);

    await store.close();
    await fill(store, clock);
    clock.advance(1_000);
    await sleep(30);
    assert.ok(store.size() > 0, 'no sweeping after close()');
  });

  it('stays bounded under churn when entries are never read again', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
    let peak = 0;
    for (let round = 0; round < 50; round++) {
      await fill(store, clock);
      clock.advance(1_000);
      store.sweep();
      peak = Math.max(peak, store.size());
    }
    assert.equal(peak, 0);
    await store.close();
  });
});
