import assert from 'node:assert/strict';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import { timed } from '../../src/adapters/timed-store';
import { sample } from '../support/prometheus';

describe('metrics (prom-client adapter)', () => {
  it('two apps in one process keep separate registries, labelled with their name', async () => {
    const a = new PromMetrics({ app: 'admin' });
    const w = new PromMetrics({ app: 'web' });
    a.loginAttempt('admin', 'success');
    a.loginAttempt('admin', 'bad-credentials');
    w.signatureFailed('sign-invalid');
    const ta = (await a.exposition()).body;
    const tw = (await w.exposition()).body;
    assert.equal(sample(ta, 'authguard_logins_total', { login_type: 'admin', outcome: 'success', app: 'admin' }), 1);
    assert.doesNotMatch(ta, /sign-invalid/);
    assert.equal(sample(tw, 'authguard_signature_failures_total', { reason: 'sign-invalid', app: 'web' }), 1);
    assert.doesNotMatch(tw, /outcome="success"/);
    for (const text of [ta, tw]) {
      assert.match(text, /^process_cpu_user_seconds_total /m, 'process metrics appended');
      assert.match(text, /^# TYPE authguard_rate_limit_rejections_total counter$/m);
      assert.match(text, /^# TYPE authguard_idempotency_conflicts_total counter$/m);
    }
  });

  it('times store calls by store, operation and outcome; synchronous helpers pass through', async () => {
    const m = new PromMetrics({ app: 't' });
    const store = {
      async get(k: string) {
        return k === 'x' ? 'v' : null;
      },
      async boom(): Promise<never> {
        throw new Error('down');
      },
      size: () => 3,
    };
    const s = timed(store, 'key-value', m);
    assert.equal(await s.get('x'), 'v');
    await assert.rejects(s.boom(), /down/);
    assert.equal(s.size(), 3);
    const text = (await m.exposition()).body;
    const count = (operation: string, outcome: string) =>
      sample(text, 'authguard_store_call_duration_seconds_count', { store: 'key-value', operation, outcome, app: 't' });
    assert.equal(count('get', 'ok'), 1);
    assert.equal(count('boom', 'error'), 1);
    assert.doesNotMatch(text, /operation="size"/);
  });
});
