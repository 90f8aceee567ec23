/**
 * The store backends' registry (src/main/store-backends.ts): the layers in their one documented
 * order, each backend's layers, and the assembly that applies them.
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { FencedSessionStore } from '../../src/adapters/redis/session-cache/write-fence';
import { DomainError } from '../../src/domain/errors';
import { systemClock } from '../../src/main/infrastructure';
import { assembleStores, decorateForApp, REDIS_MODE_NAMES, redisModeOf, STORE_BACKEND_NAMES, STORE_LAYERS, storeBackendOf, type RedisModeName, type StoreBackendName, type StoreSettings } from '../../src/main/store-backends';
import { testConfig } from '../support/apps';
import { sample } from '../support/prometheus';

describe('store backends: one registry, one order of layers', () => {
  it('the layers, innermost first, in the order the stores have always been wrapped', () => {
    assert.deepEqual(
      STORE_LAYERS.map((l) => `${l.name} (${l.stage})`),
      ['session cache (process)', 'write fence (process)', 'replica wait (process)', 'ready wait (process)', 'fail closed (process)', 'timing (app)'],
    );
  });

  it('every per-app layer comes after every process-wide one (an app wraps what the process assembled)', () => {
    const stages = STORE_LAYERS.map((l) => l.stage);
    assert.ok(stages.lastIndexOf('process') < stages.indexOf('app'));
  });

  it('each backend names the layers it has always had', () => {
    assert.deepEqual(STORE_BACKEND_NAMES, ['memory', 'redis']);
    assert.deepEqual(REDIS_MODE_NAMES, ['standalone', 'sentinel', 'cluster']);
    const layers = (store: StoreBackendName, mode: RedisModeName) => [...storeBackendOf({ store, redis: { mode } }).layers].sort();
    assert.deepEqual(layers('memory', 'standalone'), ['timing']);
    const server = ['fail closed', 'replica wait', 'session cache', 'timing', 'write fence'];
    assert.deepEqual(layers('redis', 'standalone'), server);
    assert.deepEqual(layers('redis', 'sentinel'), server);
    assert.deepEqual(layers('redis', 'cluster'), ['fail closed', 'ready wait', 'replica wait', 'timing']);
    assert.equal(storeBackendOf({ store: 'redis', redis: { mode: 'cluster' } }), redisModeOf({ mode: 'cluster' }));
  });

  it('memory: the raw ports, timed per app', async () => {
    const stores = assembleStores(testConfig(), { log: silentLogger, clock: systemClock, sessionReaders: 'http-apps' });
    try {
      const backend = stores.health as InMemoryBackend;
      assert.ok(backend instanceof InMemoryBackend);
      assert.equal(stores.ports.kv, backend.kv, 'no layer in the process');
      assert.equal(stores.ports.sessions, backend.sessions);
      const metrics = new PromMetrics({ app: 't' });
      const app = decorateForApp(stores.ports, stores.backend, metrics);
      await app.kv.set('k', 'v', 1000);
      const text = (await metrics.exposition()).body;
      assert.equal(sample(text, 'authguard_store_call_duration_seconds_count', { store: 'key-value', operation: 'set', outcome: 'ok', app: 't' }), 1);
    } finally {
      await stores.close();
    }
  });

  it('Redis on one server: fail closed over the write fence over the raw session store (no cache, no replicas)', async () => {
    const settings: StoreSettings = testConfig({ 'session.local-cache.enabled': false, 'svc.redis.wait-replicas': 0 }, 'redis');
    const stores = assembleStores(settings, { log: silentLogger, clock: systemClock, sessionReaders: 'http-apps' });
    try {
      const guard = stores.ports.sessions;
      assert.ok(Object.prototype.hasOwnProperty.call(guard, 'getSession'), 'the guard overrides every method');
      assert.ok(Object.getPrototypeOf(guard) instanceof FencedSessionStore, 'the guard wraps the fence itself');
      assert.ok(Object.getPrototypeOf(stores.ports.kv) instanceof RedisKeyValueStore, 'the guard wraps the raw key-value store');
      assert.equal(stores.sessionCache, undefined);
      await assert.rejects(
        assembleStores({ ...settings, redis: { ...settings.redis, url: 'redis://127.0.0.1:1', commandTimeoutMs: 200 } }, { log: silentLogger, clock: systemClock, sessionReaders: 'tools' }).ports.kv.get('k'),
        (e: unknown) => e instanceof DomainError && e.reason === 'store-unavailable',
      );
    } finally {
      await stores.close();
    }
  });
});
