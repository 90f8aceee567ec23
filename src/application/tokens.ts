/**
 * Dependency-injection identifiers for the ports and services of the application layer.
 * Only src/main binds them to implementations (the composition roots).
 */
import type { interfaces } from 'inversify';
import type { Clock } from './ports/clock';
import type { KeyValueStore } from './ports/key-value-store';
import type { HealthIndicator } from './ports/health-indicator';
import type { Logger } from './ports/logger';
import type { Metrics } from './ports/metrics';
import type { RateLimitStore } from './ports/rate-limit-store';
import type { SessionStore } from './ports/session-store';
import type { StoreHealth } from './ports/store-health';
import type { SessionManagers } from './session/session-manager';

const id = <T>(name: string): interfaces.ServiceIdentifier<T> => Symbol.for(`authguard.${name}`);

export const TOKENS = {
  Clock: id<Clock>('Clock'),
  Logger: id<Logger>('Logger'),
  SessionStore: id<SessionStore>('SessionStore'),
  KeyValueStore: id<KeyValueStore>('KeyValueStore'),
  RateLimitStore: id<RateLimitStore>('RateLimitStore'),
  StoreHealth: id<StoreHealth>('StoreHealth'),
  Metrics: id<Metrics>('Metrics'),
  /** Multi-bound: one binding per health component (store, user directory, ...). */
  HealthIndicator: id<HealthIndicator>('HealthIndicator'),
  SessionManagers: id<SessionManagers>('SessionManagers'),
} as const;
