/**
 * What the attack tests share: both apps built on one store with a fake clock, a TOTP enrolment over HTTP, codes
 * computed independently of the service (otpauth's arithmetic, as the service's own tests fall back to), and client
 * addresses that change on every request (the per-IP rate limits are not what these tests are about).
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { OtpauthTotp } from '../../src/adapters/otp/otpauth-totp';
import type { ConfigKey } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { passkeyApps, type PasskeyApp } from '../support/passkey-apps';
import { requireRedis } from '../support/services';

const algorithm = new OtpauthTotp();

/** The code an authenticator app shows for `secret` at `at` (ms), `offset` time steps away. */
export const codeAt = (secret: string, at: number, offset = 0): string => algorithm.codeAt(secret, Math.floor(at / 30_000) + offset);

/** Six digits that are none of the codes within two steps of `at`. */
export function wrongCode(secret: string, at: number, seed: number): string {
  const near = new Set([-2, -1, 0, 1, 2].map((o) => codeAt(secret, at, o)));
  for (let i = seed; ; i++) {
    const c = String((i * 7919 + 123_457) % 1_000_000).padStart(6, '0');
    if (!near.has(c)) return c;
  }
}

let ipSeq = 0;
/** A new client address per call (the suites trust loopback as a proxy). */
export const nextIp = (): string => `10.${90 + Math.floor(++ipSeq / 62_500)}.${Math.floor(ipSeq / 250) % 250}.${ipSeq % 250}`;

export const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

export interface Lab {
  readonly infra: TestInfra;
  readonly clock: FakeClock;
  readonly built: ReturnType<typeof buildBoth>;
  readonly apps: readonly PasskeyApp[];
  app(type: 'admin' | 'web'): PasskeyApp;
}

/** Both apps on `kind`, member `bob.smith` registered on web; the lock's budget as `overrides` say. */
export async function lab(ctx: Mocha.Context, kind: StoreKind, overrides: Partial<Record<ConfigKey, unknown>> = {}): Promise<Lab> {
  if (kind === 'redis') await requireRedis(ctx);
  const clock = new FakeClock(Date.UTC(2026, 10, 24, 12, 0, 0));
  const config = testConfig(
    { 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides },
    kind,
  );
  const infra = testInfra(config, { label: `attack${kind}`, clock });
  const built = buildBoth(config, infra);
  await request(built.web.app.callback())
    .post('/auth/register')
    .set('X-Forwarded-For', nextIp())
    .send({ username: 'bob.smith', password: 'bob-pass-123' })
    .expect(201);
  const apps = passkeyApps(built, ['bob.smith', 'bob-pass-123']);
  return { infra, clock, built, apps, app: (type) => apps.find((a) => a.type === type) as PasskeyApp };
}

/** The access token of a password login of an account without a second factor. */
export async function passwordSession(a: PasskeyApp, username: string, password: string): Promise<string> {
  const res = await a.passwordLogin(username, password, nextIp());
  assert.equal(res.status, 200, res.text);
  const token = (a.data(res) as { accessToken?: string }).accessToken;
  assert.ok(token, `no session: ${res.text}`);
  return token;
}

/** Enrols TOTP on the session's account over HTTP; the secret and the recovery codes. */
export async function enrolTotp(a: PasskeyApp, token: string, clock: FakeClock): Promise<{ secret: string; recoveryCodes: string[] }> {
  const call = () => request(a.app.callback());
  const setup = await call().post('/auth/mfa/totp/setup').set(bearer(token));
  assert.equal(setup.status, 200, setup.text);
  const secret = (a.data(setup) as { secret: string }).secret;
  const confirm = await call()
    .post('/auth/mfa/totp/confirm')
    .set(bearer(token))
    .send({ code: codeAt(secret, clock.now()) });
  assert.equal(confirm.status, 200, confirm.text);
  return { secret, recoveryCodes: (a.data(confirm) as { recoveryCodes: string[] }).recoveryCodes };
}

/** The reason of an answer in either app's format (admin: the catalogue's number mapped back); `ok` for a 2xx. */
export function reasonOf(a: PasskeyApp, res: request.Response): string {
  if (res.status < 300) return 'ok';
  if (a.type === 'web') return String(res.body?.code);
  const entry = Object.entries(ERROR_CATALOGUE).find(([, e]) => e.code === res.body?.code);
  return entry === undefined ? `${res.status} ${res.text.slice(0, 80)}` : entry[0];
}
