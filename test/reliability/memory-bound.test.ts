import assert from 'node:assert/strict';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { SessionManager } from '../../src/application/session/session-manager';
import { DEFAULT_SESSION_POLICY, EXPIRED_GRACE_MS } from '../../src/domain/session';
import { FakeClock } from '../support/fake-clock';

describe('in-memory store stays bounded', function () {
  this.timeout(120_000);
  it('100k short-lived sessions, nonces and rate-limit keys are evicted without being read again', async () => {
    const clock = new FakeClock();
    const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
    const sessions = new SessionManager('web', { ...DEFAULT_SESSION_POLICY, timeout: 60, shareSecret: '' }, store.sessions, clock);
    const N = 100_000;
    for (let i = 0; i < N; i++) {
      await sessions.login({ userId: String(i % 5000), username: `u${i}`, roles: [], permissions: [] });
      await store.kv.setIfAbsent(`nonce:${i}`, '1', 600_000);
      await store.rateLimits.hit(`rl:login:10.0.${i >> 8}.${i & 255}`, 5, 60_000, clock.now());
    }
    const peak = store.size();
    assert.ok(peak >= 3 * N, `expected at least ${3 * N} entries at the peak, got ${peak}`);
    clock.advance(600_000 + 60_000 + EXPIRED_GRACE_MS + 1);
    store.sweep();
    assert.ok(store.size() <= 10, `after expiry the store holds ${store.size()} entries`);
    await store.close();
  });
});
