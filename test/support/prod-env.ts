/** A complete set of (throw-away) production secrets, for tests that load the prod profile. */
import { generateKeyPairSync } from 'node:crypto';

let cached: Record<string, string> | undefined;

export function prodSecrets(): Record<string, string> {
  cached ??= {
    SVC_RSA_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    SVC_REDIS_URL: 'redis://:pw@127.0.0.1:6379',
    SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123"}',
    SVC_LOGIN_DEVICE_COOKIE_SECRET: 'device-cookie-key-0123456789abcdef',
    SVC_IDEMPOTENCY_TOKEN_SECRET: 'idempotency-token-key-0123456789abcdef',
    SVC_MFA_ENCRYPTION_KEY: '3f1c9a7e5b2d4f6081a3c5e7092b4d6f8a1c3e5f7092b4d6f8a1c3e5f7092b4d',
  };
  return cached;
}

export function prodEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...prodSecrets(), ...extra };
}
