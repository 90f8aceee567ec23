import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { configWarnings, loadConfig } from '../../src/main/config';
import { createInfrastructure } from '../../src/main/infrastructure';
import { emptyConfigDir, problemsOf } from '../support/config-problems';

describe('configuration: the local session cache (session.local-cache.*)', () => {
  it('is off by default: 10000 entries, 60 s', () => {
    assert.deepEqual(loadConfig({ env: {}, configDir: emptyConfigDir() }).sessionCache, {
      enabled: false,
      maxEntries: 10_000,
      ttlMs: 60_000,
    });
  });

  it('reads SESSION_LOCAL_CACHE_ENABLED, _MAX_ENTRIES and _TTL_MS', () => {
    const c = loadConfig({
      env: {
        SVC_STORE: 'redis',
        SVC_REDIS_URL: 'redis://127.0.0.1:6379',
        SESSION_LOCAL_CACHE_ENABLED: 'true',
        SESSION_LOCAL_CACHE_MAX_ENTRIES: '500',
        SESSION_LOCAL_CACHE_TTL_MS: '1000',
      },
      configDir: emptyConfigDir(),
    });
    assert.deepEqual(c.sessionCache, { enabled: true, maxEntries: 500, ttlMs: 1000 });
    assert.deepEqual(configWarnings(c), []);
  });

  it('refuses bad bounds, naming the key and its variable', () => {
    const problems = problemsOf({
      SESSION_LOCAL_CACHE_MAX_ENTRIES: '0',
      SESSION_LOCAL_CACHE_TTL_MS: '10',
      SESSION_LOCAL_CACHE_ENABLED: 'yes',
    });
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems.join('\n'), /^session\.local-cache\.max-entries \(SESSION_LOCAL_CACHE_MAX_ENTRIES\)/m);
    assert.match(problems.join('\n'), /^session\.local-cache\.ttl-ms \(SESSION_LOCAL_CACHE_TTL_MS\)/m);
    assert.match(problems.join('\n'), /^session\.local-cache\.enabled \(SESSION_LOCAL_CACHE_ENABLED\): expected true or false/m);
  });

  it('refuses the cache in cluster mode, naming session.local-cache.enabled', () => {
    const problems = problemsOf({
      SVC_STORE: 'redis',
      SVC_REDIS_URL: 'redis://127.0.0.1:6379',
      SVC_REDIS_MODE: 'cluster',
      SESSION_LOCAL_CACHE_ENABLED: 'true',
    });
    const mine = problems.filter((p) => p.startsWith('session.local-cache.enabled'));
    assert.equal(mine.length, 1, problems.join('\n'));
    assert.match(
      mine[0] ?? '',
      new RegExp(
        String.raw`^session\.local-cache\.enabled \(SESSION_LOCAL_CACHE_ENABLED\): .*not supported` +
          String.raw` with svc\.redis\.mode=cluster.*one tracking connection per master`,
      ),
    );
  });

  it('is ignored with a warning on the in-memory store (no cache, no extra connection)', async () => {
    const c = loadConfig({ env: { SESSION_LOCAL_CACHE_ENABLED: 'true' }, configDir: emptyConfigDir() });
    assert.equal(c.store, 'memory');
    assert.deepEqual(configWarnings(c), [
      'session.local-cache.enabled (SESSION_LOCAL_CACHE_ENABLED) is ignored with ' +
        'svc.store=memory: the in-memory store already lives in the process',
    ]);
    const warned: string[] = [];
    const infra = createInfrastructure(c, { log: { ...silentLogger, warn: (_o: object, msg?: string) => void warned.push(msg ?? '') } });
    try {
      assert.ok(
        warned.some((w) => w.startsWith('session.local-cache.enabled')),
        warned.join('\n'),
      );
      assert.equal(infra.reportSessionCache, undefined);
    } finally {
      await infra.close();
    }
  });
});
