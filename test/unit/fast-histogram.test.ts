import assert from 'node:assert/strict';
import { Histogram, Registry } from 'prom-client';
import { FastHistogram } from '../../src/adapters/metrics/fast-histogram';

/** The same histogram twice: prom-client's own and the fast one, each in a registry with a default label. */
function pair() {
  const config = {
    name: 'demo_seconds',
    help: 'demo "help" \\ text',
    labelNames: ['route', 'status'] as const,
    buckets: [0.005, 0.01, 0.5, 1],
  };
  const plainRegistry = new Registry();
  const fastRegistry = new Registry();
  plainRegistry.setDefaultLabels({ app: 'admin' });
  fastRegistry.setDefaultLabels({ app: 'admin' });
  const plain = new Histogram({ ...config, labelNames: [...config.labelNames], registers: [plainRegistry] });
  const fast = new FastHistogram({ ...config, labelNames: [...config.labelNames], registers: [fastRegistry] });
  return { plain, fast, plainRegistry, fastRegistry };
}

describe('FastHistogram (prom-client histogram with a cheap hot path)', () => {
  const observations: Array<[string, string, number]> = [
    ['/a', '200', 0.001],
    ['/a', '200', 0.005], // on a bound: counted in that bucket
    ['/a/"q"\\', '404', 0.0051],
    ['/a', '200', 0.7],
    ['/a/"q"\\', '404', 3], // above every bound: only in +Inf
    ['/b', '500', 1],
  ];

  it('exposes exactly the text and JSON prom-client gives for the same observations', async () => {
    const { plain, fast, plainRegistry, fastRegistry } = pair();
    const series = new Map<string, ReturnType<typeof fast.seriesOf>>();
    for (const [route, status, v] of observations) {
      plain.labels({ route, status }).observe(v);
      const key = `${route} ${status}`;
      if (!series.has(key)) series.set(key, fast.seriesOf({ route, status }));
      series.get(key)?.observe(v);
    }
    assert.equal(await fastRegistry.metrics(), await plainRegistry.metrics());
    assert.deepEqual(await fastRegistry.getMetricsAsJSON(), await plainRegistry.getMetricsAsJSON());
  });

  it('shows a series once observed, and forgets everything on reset', async () => {
    const { plain, fast, plainRegistry, fastRegistry } = pair();
    const s = fast.seriesOf({ route: '/a', status: '200' });
    assert.equal(await fastRegistry.metrics(), await plainRegistry.metrics(), 'no sample before the first observation');
    s.observe(0.2);
    plain.labels({ route: '/a', status: '200' }).observe(0.2);
    assert.match(await fastRegistry.metrics(), /^demo_seconds_count\{app="admin",route="\/a",status="200"\} 1$/m);
    fastRegistry.resetMetrics();
    plainRegistry.resetMetrics();
    assert.equal(await fastRegistry.metrics(), await plainRegistry.metrics());
  });

  it('keeps what prom-client observe() recorded directly', async () => {
    const { plain, fast, plainRegistry, fastRegistry } = pair();
    fast.observe({ route: '/x', status: '200' }, 0.3);
    plain.observe({ route: '/x', status: '200' }, 0.3);
    assert.equal(await fastRegistry.metrics(), await plainRegistry.metrics());
  });
});
