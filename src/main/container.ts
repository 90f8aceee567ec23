/** The bindings both composition roots share. Only src/main touches the container. */
import 'reflect-metadata';
import { Container } from 'inversify';
import { SessionManager, SessionManagers } from '../application/session/session-manager';
import { TOKENS } from '../application/tokens';
import type { AppConfig } from './config';
import { bindDirectories } from './directories';
import type { Infrastructure } from './infrastructure';
import { MAIN_TOKENS } from './tokens';

export const LOGIN_TYPES = { admin: 'admin', web: 'web' } as const;

export function createBaseContainer(config: AppConfig, infra: Infrastructure): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(MAIN_TOKENS.Config).toConstantValue(config);
  c.bind(TOKENS.Clock).toConstantValue(infra.clock);
  c.bind(TOKENS.Logger).toConstantValue(infra.log);
  c.bind(TOKENS.SessionStore).toConstantValue(infra.sessions);
  c.bind(TOKENS.KeyValueStore).toConstantValue(infra.kv);
  c.bind(TOKENS.RateLimitStore).toConstantValue(infra.rateLimits);
  c.bind(TOKENS.StoreHealth).toConstantValue(infra.health);
  // Both login types are registered at start-up: a guard naming either never fails lazily.
  c.bind(TOKENS.SessionManagers).toConstantValue(
    new SessionManagers(
      Object.values(LOGIN_TYPES).map((type) => new SessionManager(type, config.session, infra.sessions, infra.clock, infra.log)),
    ),
  );
  bindDirectories(c, infra.directories);
  return c;
}
