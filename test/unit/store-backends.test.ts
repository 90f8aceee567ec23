/**
 * The store backends' registry (src/main/store-backends.ts): the layers in their one documented
 * order, each backend's layers, the assembly that applies them, and no backend's name spelled
 * anywhere else in src/.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { RedisKeyValueStore } from '../../src/adapters/redis/key-value-store';
import { FencedSessionStore } from '../../src/adapters/redis/session-cache/write-fence';
import { DomainError } from '../../src/domain/errors';
import { systemClock } from '../../src/main/infrastructure';
import {
  assembleStores,
  decorateForApp,
  REDIS_MODE_NAMES,
  redisModeOf,
  STORE_BACKEND_NAMES,
  STORE_LAYERS,
  storeBackendOf,
  type RedisModeName,
  type StoreBackendName,
  type StoreSettings,
} from '../../src/main/store-backends';
import { testConfig } from '../support/apps';
import { sample } from '../support/prometheus';

describe('store backends: one registry, one order of layers', () => {
  it('the layers, innermost first, in the order the stores have always been wrapped', () => {
    assert.deepEqual(
      STORE_LAYERS.map((l) => `${l.name} (${l.stage})`),
      [
        'session cache (process)',
        'write fence (process)',
        'replica wait (process)',
        'ready wait (process)',
        'fail closed (process)',
        'timing (app)',
      ],
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
      assert.equal(
        sample(text, 'authguard_store_call_duration_seconds_count', { store: 'key-value', operation: 'set', outcome: 'ok', app: 't' }),
        1,
      );
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
        assembleStores(
          { ...settings, redis: { ...settings.redis, url: 'redis://127.0.0.1:1', commandTimeoutMs: 200 } },
          { log: silentLogger, clock: systemClock, sessionReaders: 'tools' },
        ).ports.kv.get('k'),
        (e: unknown) => e instanceof DomainError && e.reason === 'store-unavailable',
      );
    } finally {
      await stores.close();
    }
  });
});

/** Every .ts file under `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * Where a backend's name may still be spelled, and why. The Redis adapter speaks its own
 * topology vocabulary (RedisTopology's `mode`, the health details' `mode`), which its callers and
 * tests construct; the registry maps svc.redis.mode onto it. The health endpoint's OpenAPI
 * example stays byte-identical.
 */
const ALLOWED: ReadonlyArray<{ readonly under: string; readonly names: readonly string[]; readonly why: string }> = [
  { under: 'main/store-backends.ts', names: [...STORE_BACKEND_NAMES, ...REDIS_MODE_NAMES], why: 'the registry' },
  { under: 'adapters/redis/', names: REDIS_MODE_NAMES, why: "the Redis adapter's own topology discriminants" },
  {
    under: 'adapters/koa/schemas/operation-schemas.ts',
    names: ['redis'],
    why: 'an example value of the health document (OpenAPI unchanged)',
  },
];

describe('no backend name outside the registry', () => {
  const SRC = path.join(__dirname, '../../src');
  /** `file:line 'name'` for every string literal (value or type) in src/ that is a backend's name. */
  function spelled(): string[] {
    const names = new Set<string>([...STORE_BACKEND_NAMES, ...REDIS_MODE_NAMES]);
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push(`${rel}:${line} '${node.text}'`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return found;
  }

  it('src/ spells svc.store and svc.redis.mode values only in src/main/store-backends.ts (and the places ALLOWED names)', () => {
    const all = spelled();
    const outside = all.filter((hit) => !ALLOWED.some((a) => hit.startsWith(a.under) && a.names.some((n) => hit.endsWith(` '${n}'`))));
    assert.deepEqual(
      outside,
      [],
      `a backend's name outside the registry: ask storeBackendOf()/redisModeOf() what the backend can do instead:\n${outside.join('\n')}`,
    );
    for (const a of ALLOWED)
      assert.ok(
        all.some((hit) => hit.startsWith(a.under)),
        `stale exception ${a.under} (${a.why}): nothing spelled there any more`,
      );
  });
});
