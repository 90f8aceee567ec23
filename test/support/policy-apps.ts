/**
 * Both apps behind one face, for the session-policy HTTP tests: log the demo user in (admin: the
 * RSA-encrypted password; web: plain JSON), read a session, refresh, list one's own sessions, and
 * the reason of a refusal (admin: its numeric code mapped back through the catalogue; web: the
 * problem's `code`).
 */
import { constants, publicEncrypt } from 'node:crypto';
import type Koa from 'koa';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import type { Reason } from '../../src/domain/errors';
import type { LoginType } from '../../src/domain/login-type';
import type { ConfigKey } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from './apps';
import { FakeClock } from './fake-clock';
import { requireRedis } from './services';

export interface LoginChoices {
  readonly deviceType?: string;
  readonly rememberMe?: boolean;
  readonly userAgent?: string;
}

export interface PolicyApp {
  readonly type: LoginType;
  readonly infra: TestInfra;
  /** The session core's clock (unless the app runs on the real one). */
  readonly clock: FakeClock;
  login(choices?: LoginChoices): Promise<request.Response>;
  /** The login's tokens (asserting 200). */
  tokens(choices?: LoginChoices): Promise<{ accessToken: string; refreshToken?: string; expires: string | null }>;
  /** An authenticated read: 200, or the refusal. */
  use(token: string): Promise<request.Response>;
  refresh(refreshToken: string): Promise<request.Response>;
  /** The caller's own sessions (GET /auth/sessions, /user/sessions). */
  ownSessions(token: string): Promise<Array<{ tokenId: string; deviceType: string; current: boolean }>>;
  http(): request.Agent | ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The domain reason of an error response of either app. */
export function reasonOf(type: LoginType, res: request.Response): Reason | 'ok' {
  if (res.status < 300) return 'ok';
  const body = res.body as { code?: unknown };
  if (type === 'web') return body.code as Reason;
  const found = Object.entries(ERROR_CATALOGUE).find(([, e]) => e.code === body.code);
  if (found === undefined) throw new Error(`no reason with code ${String(body.code)}: ${res.text}`);
  return found[0] as Reason;
}

let ipSeq = 0;
/** A fresh client address per login (the login limit is 5 per minute and address). */
const nextIp = (): string => `10.29.${Math.floor(++ipSeq / 200) % 250}.${(ipSeq % 200) + 1}`;

/** The app of `type` on `kind`'s store with these settings; a FakeClock at the real time drives the session core (or the real clock). */
export async function policyApp(
  type: LoginType,
  kind: StoreKind,
  overrides: Partial<Record<ConfigKey, unknown>> = {},
  label = 'policy',
  opts: { realClock?: boolean } = {},
): Promise<PolicyApp> {
  const clock = new FakeClock(Date.now());
  const config = testConfig({ 'svc.time-zone': 'UTC', 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides }, kind);
  const infra = testInfra(config, opts.realClock === true ? { label } : { clock, label });
  const built = buildBoth(config, infra);
  const app: Koa = type === 'admin' ? built.admin.app : built.web.app;
  const http = () => request(app.callback());
  let publicKey: string | undefined;
  const password = async (): Promise<string> => {
    if (type === 'web') return 'alice-pass-123';
    publicKey ??= (await http().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
    const key = publicKey as string;
    return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123')).toString(
      'base64',
    );
  };
  const unwrap = (r: request.Response) => (type === 'admin' ? r.body.data : r.body);
  const face: PolicyApp = {
    type,
    infra,
    clock,
    async login(c = {}) {
      const body = {
        username: type === 'admin' ? 'admin' : 'alice',
        password: await password(),
        ...(c.deviceType !== undefined ? { deviceType: c.deviceType } : {}),
        ...(c.rememberMe !== undefined ? { rememberMe: c.rememberMe } : {}),
      };
      return http()
        .post('/auth/login')
        .set('X-Forwarded-For', nextIp())
        .set('User-Agent', c.userAgent ?? 'policy-test')
        .send(body);
    },
    async tokens(c = {}) {
      const r = await face.login(c);
      if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);
      return unwrap(r);
    },
    use: (token) =>
      http()
        .get(type === 'admin' ? '/auth/me' : '/user/profile')
        .set('Authorization', `Bearer ${token}`),
    refresh: (refreshToken) => http().post('/auth/refresh-token').set('X-Forwarded-For', nextIp()).send({ refreshToken }),
    async ownSessions(token) {
      const r = await http()
        .get(type === 'admin' ? '/auth/sessions' : '/user/sessions')
        .set('Authorization', `Bearer ${token}`);
      if (r.status !== 200) throw new Error(`own sessions: ${r.status} ${r.text}`);
      return unwrap(r);
    },
    http,
    close: () => infra.dispose(),
  };
  return face;
}

/**
 * The hooks every session-policy describe needs: Redis required for the Redis store, each test's app
 * closed after it. `use` builds the test's app (its settings; `realClock` for TTL-driven ends) and
 * `reason` reads the refusal an authenticated request gets.
 */
export function policyAppPerTest(type: LoginType, kind: StoreKind, label: string) {
  let app: PolicyApp | undefined;
  before(async function () {
    if (kind === 'redis') await requireRedis(this);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  return {
    use: async (overrides: Partial<Record<ConfigKey, unknown>> = {}, realClock = false): Promise<PolicyApp> => {
      app = await policyApp(type, kind, overrides, label, { realClock });
      return app;
    },
    reason: async (a: PolicyApp, token: string) => reasonOf(type, await a.use(token)),
  };
}
