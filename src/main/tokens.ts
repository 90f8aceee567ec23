/** DI identifiers owned by the composition roots (configuration). Port identifiers are in src/application/tokens.ts. */
import type { interfaces } from 'inversify';
import type { AppConfig } from './config';

export const MAIN_TOKENS = {
  Config: Symbol.for('authguard.Config') as interfaces.ServiceIdentifier<AppConfig>,
} as const;
