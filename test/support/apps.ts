/** Builds the real apps for HTTP tests, on the in-memory store or on Redis (per-suite key prefix). */
import Redis from 'ioredis';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { loadConfig, type AppConfig, type ConfigKey } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildAdminApp } from '../../src/main/admin';
import { buildWebApp } from '../../src/main/web';
import type { Clock } from '../../src/application/ports/clock';
import { REDIS_URL, deleteByPrefix, testKeyPrefix } from './services';

export type StoreKind = 'memory' | 'redis';
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'redis'];

export function testConfig(overrides: Partial<Record<ConfigKey, unknown>> = {}, store: StoreKind = 'memory'): AppConfig {
  return loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: { 'svc.store': store, ...(store === 'redis' ? { 'svc.redis.url': REDIS_URL } : {}), ...overrides },
  });
}

/**
 * A test configuration on a Redis Cluster, loaded from the variables an operator sets:
 * SVC_STORE=redis SVC_REDIS_MODE=cluster SVC_REDIS_NODES=<every node of `cluster`> SVC_REDIS_PASSWORD.
 */
export function clusterTestConfig(
  cluster: { readonly seedList: string; readonly password: string | undefined },
  overrides: Partial<Record<ConfigKey, unknown>> = {},
): AppConfig {
  const env: Record<string, string> = {
    APP_PROFILE: 'test',
    SVC_STORE: 'redis',
    SVC_REDIS_MODE: 'cluster',
    SVC_REDIS_NODES: cluster.seedList,
  };
  if (cluster.password !== undefined) env.SVC_REDIS_PASSWORD = cluster.password;
  return loadConfig({ env, overrides });
}

export interface TestInfra extends Infrastructure {
  /** The Redis key prefix of this infrastructure (unique per suite). */
  readonly keyPrefix: string;
  /** Removes everything this infrastructure wrote (Redis) and closes it. */
  dispose(): Promise<void>;
}

export function testInfra(config: AppConfig, opts: { clock?: Clock; label?: string } = {}): TestInfra {
  const keyPrefix = testKeyPrefix(opts.label ?? 'http');
  const infra = createInfrastructure(config, { log: silentLogger, ...(opts.clock ? { clock: opts.clock } : {}), keyPrefix });
  return {
    ...infra,
    keyPrefix,
    async dispose() {
      await infra.close();
      if (config.store === 'redis') {
        const c = new Redis(REDIS_URL);
        await deleteByPrefix(c, keyPrefix);
        c.disconnect();
      }
    },
  };
}

export function buildBoth(config: AppConfig, infra: Infrastructure) {
  return { admin: buildAdminApp(config, infra), web: buildWebApp(config, infra) };
}
