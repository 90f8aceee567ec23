/** The bindings both composition roots share. Only src/main touches the container. */
import 'reflect-metadata';
import { Container } from 'inversify';
import { SessionManager, SessionManagers } from '../application/session/session-manager';
import { TOKENS } from '../application/tokens';
import { storeHealthIndicator } from '../application/health/check-health';
import { PromMetrics } from '../adapters/metrics/prom-metrics';
import { timed } from '../adapters/timed-store';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import { MAIN_TOKENS } from './tokens';

export const LOGIN_TYPES = { admin: 'admin', web: 'web' } as const;

/** `app` names the app whose container this is (its metrics registry is labelled with it). */
export function createBaseContainer(config: AppConfig, infra: Infrastructure, app = 'app'): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(MAIN_TOKENS.Config).toConstantValue(config);
  c.bind(TOKENS.Clock).toConstantValue(infra.clock);
  c.bind(TOKENS.Logger).toConstantValue(infra.log);
  // One metrics registry per app; the stores are shared, their call latency is counted per app.
  const metrics = new PromMetrics({ app });
  c.bind(MAIN_TOKENS.PromMetrics).toConstantValue(metrics);
  c.bind(TOKENS.Metrics).toConstantValue(metrics);
  const sessions = timed(infra.sessions, 'session', metrics);
  c.bind(TOKENS.SessionStore).toConstantValue(sessions);
  c.bind(TOKENS.KeyValueStore).toConstantValue(timed(infra.kv, 'key-value', metrics));
  c.bind(TOKENS.RateLimitStore).toConstantValue(timed(infra.rateLimits, 'rate-limit', metrics));
  c.bind(TOKENS.StoreHealth).toConstantValue(infra.health);
  // Health components: bind one more HealthIndicator to add one (e.g. the user directory).
  c.bind(TOKENS.HealthIndicator).toConstantValue(storeHealthIndicator(infra.health, config.store));
  // Both login types are registered at start-up: a guard naming either never fails lazily.
  c.bind(TOKENS.SessionManagers).toConstantValue(
    new SessionManagers(
      Object.values(LOGIN_TYPES).map((type) => new SessionManager(type, config.session, sessions, infra.clock, infra.log)),
    ),
  );
  return c;
}
