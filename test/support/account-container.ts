/**
 * A container for unit tests of the account use cases: the in-memory store backend, a FakeAccounts
 * directory (also the AccountStore), a CapturingMailer, a fake clock and a fake (instant) hasher.
 */
import { BowserUserAgentParser } from '../../src/adapters/audit/bowser-user-agent-parser';
import 'reflect-metadata';
import { Container } from 'inversify';
import { NoRsaDecryptor } from '../../src/adapters/crypto/rsa';
import { PackagedCommonPasswords } from '../../src/adapters/passwords/common-password-list';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import type { AuthSettings } from '../../src/application/auth/auth-settings';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { Logger } from '../../src/application/ports/logger';
import type { SessionSettings } from '../../src/application/session/session-settings';
import { SecondFactors } from '../../src/application/mfa/second-factors';
import { TOKENS } from '../../src/application/tokens';
import type { AccountSettings } from '../../src/application/users/account-settings';
import { DEFAULT_SESSION_POLICY } from '../../src/domain/session';
import { CapturingMailer, FakeAccounts } from './fake-accounts';
import { FakeClock } from './fake-clock';

export const ACCOUNT_SETTINGS: AccountSettings = {
  passwordHistory: 5,
  requireEmail: false,
  requireVerifiedEmail: false,
  verifyCodeTtlSeconds: 900,
  resetTokenTtlSeconds: 1800,
  resetLink: 'https://app.example/reset',
  mailTimeoutMs: 1000,
};

/** Not BCrypt: `h:<password>`, instantly. */
export const fakeHasher: PasswordHasher = {
  hash: async (password) => `h:${password}`,
  verify: async (password, hash) => hash === `h:${password}`,
};

export interface AccountTestbed {
  readonly c: Container;
  readonly clock: FakeClock;
  readonly accounts: FakeAccounts;
  readonly mailer: CapturingMailer;
  readonly store: InMemoryBackend;
  /** Every key-value call's arguments, as JSON (what reached the store). */
  readonly kvCalls: string[];
  /** What was logged at warn or error. */
  readonly logged: { level: string; obj: object; msg?: string }[];
}

export function accountTestbed(settings: Partial<AccountSettings> = {}): AccountTestbed {
  const clock = new FakeClock();
  const store = new InMemoryBackend(clock, { sweepIntervalMs: 0 });
  const accounts = new FakeAccounts();
  const mailer = new CapturingMailer();
  const logged: { level: string; obj: object; msg?: string }[] = [];
  const log: Logger = {
    ...silentLogger,
    warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => logged.push({ level: 'error', obj, msg }),
  };
  const kvCalls: string[] = [];
  const kv = new Proxy(store.kv, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        kvCalls.push(JSON.stringify([prop, ...args]));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const c = new Container({ defaultScope: 'Singleton', autoBindInjectable: true });
  c.bind(TOKENS.Clock).toConstantValue(clock);
  c.bind(TOKENS.Logger).toConstantValue(log);
  c.bind(TOKENS.Metrics).toConstantValue(new PromMetrics({ app: 'test' }));
  c.bind(TOKENS.KeyValueStore).toConstantValue(kv);
  c.bind(TOKENS.SessionStore).toConstantValue(store.sessions);
  c.bind(TOKENS.UserDirectory).toConstantValue(accounts);
  c.bind(TOKENS.AccountStore).toConstantValue(accounts);
  c.bind(TOKENS.Mailer).toConstantValue(mailer);
  c.bind(TOKENS.UserAgentParser).toConstantValue(new BowserUserAgentParser());
  // No second factors here (test/http/mfa-login.test.ts has them): every account has none.
  c.bind(SecondFactors).toConstantValue({ methodsOf: async () => [] } as unknown as SecondFactors);
  c.bind(TOKENS.MfaSettings).toConstantValue({ requiredRoles: [], challengeTtlSeconds: 300 });
  c.bind(TOKENS.PasswordHasher).toConstantValue(fakeHasher);
  c.bind(TOKENS.CommonPasswords).toConstantValue(new PackagedCommonPasswords());
  c.bind(TOKENS.RsaDecryptor).toConstantValue(new NoRsaDecryptor());
  c.bind(TOKENS.AccountSettings).toConstantValue({ ...ACCOUNT_SETTINGS, ...settings });
  c.bind(TOKENS.SessionSettings).toConstantValue({ ...DEFAULT_SESSION_POLICY, shareSecret: '' } as SessionSettings);
  const auth: AuthSettings = {
    captcha: { enabled: false, type: 'math', ttlSeconds: 120 },
    maxLoginFailures: 5,
    lockSeconds: 600,
    captchaMaxFailures: 0,
    stepUpMaxAgeSeconds: 300,
    hardLockSeconds: 3600,
    refreshTokenTtlSeconds: 2592000,
    refreshTokenAbsoluteTtlSeconds: 90 * 86400,
    bcryptCost: 4,
    timeZone: 'UTC',
    deviceCookie: { secrets: ['device-cookie-key-0123456789abcdef'], maxAgeSeconds: 3600, secure: false, path: '/' },
  };
  c.bind(TOKENS.AuthSettings).toConstantValue(auth);
  return { c, clock, accounts, mailer, store, kvCalls, logged };
}
