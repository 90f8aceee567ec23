/**
 * Dependency-injection identifiers for the ports and services of the application layer.
 * Only src/main binds them to implementations (the composition roots).
 */
import type { interfaces } from 'inversify';
import type { AuthSettings } from './auth/auth-settings';
import type { CaptchaGenerator } from './ports/captcha-generator';
import type { Clock } from './ports/clock';
import type { KeyValueStore } from './ports/key-value-store';
import type { ListStore } from './ports/list-store';
import type { Logger } from './ports/logger';
import type { PasswordHasher } from './ports/password-hasher';
import type { HealthIndicator } from './ports/health-indicator';
import type { Metrics } from './ports/metrics';
import type { RateLimitStore } from './ports/rate-limit-store';
import type { RsaDecryptor } from './ports/rsa-decryptor';
import type { SessionStore } from './ports/session-store';
import type { StoreHealth } from './ports/store-health';
import type { UserDirectory } from './ports/user-directory';
import type { SessionManagers } from './session/session-manager';
import type { SignSettings, VerifySignature } from './signing/verify-signature';
import type { IdempotencySettings } from './idempotency/settings';
import type { AcquireIdempotencyLock, ReleaseIdempotencyLock } from './idempotency/param-lock';
import type { ConsumeIdempotencyToken, IssueIdempotencyToken, RestoreIdempotencyToken } from './idempotency/one-time-token';
import type { AbandonIdempotentRequest, BeginIdempotentRequest, CompleteIdempotentRequest } from './idempotency/idempotency-key';
import type { CreateExampleRecord, ListExampleRecords } from './examples/example-records';

const id = <T>(name: string): interfaces.ServiceIdentifier<T> => Symbol.for(`authguard.${name}`);

export const TOKENS = {
  Clock: id<Clock>('Clock'),
  Logger: id<Logger>('Logger'),
  SessionStore: id<SessionStore>('SessionStore'),
  KeyValueStore: id<KeyValueStore>('KeyValueStore'),
  ListStore: id<ListStore>('ListStore'),
  RateLimitStore: id<RateLimitStore>('RateLimitStore'),
  StoreHealth: id<StoreHealth>('StoreHealth'),
  Metrics: id<Metrics>('Metrics'),
  /** Multi-bound: one binding per health component (store, user directory, ...). */
  HealthIndicator: id<HealthIndicator>('HealthIndicator'),
  SessionManagers: id<SessionManagers>('SessionManagers'),
  // request protection (settings from the configuration, use cases)
  SignSettings: id<SignSettings>('SignSettings'),
  VerifySignature: id<VerifySignature>('VerifySignature'),
  IdempotencySettings: id<IdempotencySettings>('IdempotencySettings'),
  AcquireIdempotencyLock: id<AcquireIdempotencyLock>('AcquireIdempotencyLock'),
  ReleaseIdempotencyLock: id<ReleaseIdempotencyLock>('ReleaseIdempotencyLock'),
  IssueIdempotencyToken: id<IssueIdempotencyToken>('IssueIdempotencyToken'),
  ConsumeIdempotencyToken: id<ConsumeIdempotencyToken>('ConsumeIdempotencyToken'),
  RestoreIdempotencyToken: id<RestoreIdempotencyToken>('RestoreIdempotencyToken'),
  BeginIdempotentRequest: id<BeginIdempotentRequest>('BeginIdempotentRequest'),
  CompleteIdempotentRequest: id<CompleteIdempotentRequest>('CompleteIdempotentRequest'),
  AbandonIdempotentRequest: id<AbandonIdempotentRequest>('AbandonIdempotentRequest'),
  CreateExampleRecord: id<CreateExampleRecord>('CreateExampleRecord'),
  ListExampleRecords: id<ListExampleRecords>('ListExampleRecords'),
  /** The accounts of the app's login type (admin users on the admin app, members on the web app). */
  UserDirectory: id<UserDirectory>('UserDirectory'),
  PasswordHasher: id<PasswordHasher>('PasswordHasher'),
  RsaDecryptor: id<RsaDecryptor>('RsaDecryptor'),
  CaptchaGenerator: id<CaptchaGenerator>('CaptchaGenerator'),
  AuthSettings: id<AuthSettings>('AuthSettings'),
} as const;
