/** DI identifiers owned by the composition roots (configuration). Port identifiers are in src/application/tokens.ts. */
import type { interfaces } from 'inversify';
import type { PromMetrics } from '../adapters/metrics/prom-metrics';
import type { AppConfig } from './config';

export const MAIN_TOKENS = {
  Config: Symbol.for('authguard.Config') as interfaces.ServiceIdentifier<AppConfig>,
  /** This app's metrics registry (the Metrics port's adapter), for /actuator/prometheus. */
  PromMetrics: Symbol.for('authguard.PromMetrics') as interfaces.ServiceIdentifier<PromMetrics>,
} as const;
