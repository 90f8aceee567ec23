/**
 * npm run soak (not in CI): starts one app instance (test/support/app-process.ts) and drives login
 * + authenticated traffic against it for a few minutes, printing the instance's RSS and heap at the
 * start, every 30 s and at the end. A bounded store and no leaks show as a flat RSS after warm-up.
 *
 * Env: SOAK_SECONDS (default 180), SOAK_CONCURRENCY (default 8), SOAK_STORE (memory | redis,
 * default memory), REDIS_URL (for redis; keys go under a soak-only prefix, deleted at the end).
 */
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { AppInstance } from '../test/support/instances';
import { deleteByPrefix } from '../test/support/services';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const STORE = process.env.SOAK_STORE === 'redis' ? 'redis' : 'memory';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `agsoak:${process.pid}:${randomBytes(3).toString('hex')}:`;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const statuses = new Map<number, number>();
let requests = 0;
let logins = 0;

async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  requests++;
  statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  return { status: r.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

async function main(): Promise<void> {
  const instance = await AppInstance.start({
    SVC_STORE: STORE,
    ...(STORE === 'redis' ? { SVC_REDIS_URL: REDIS_URL, SVC_REDIS_KEY_PREFIX: PREFIX } : {}),
    SVC_CAPTCHA_ENABLED: 'false',
    SVC_TRUSTED_PROXIES: '127.0.0.1,::1',
  });
  const base = instance.url('admin');
  const pem = String(((await call(base, 'GET', '/auth/getConfig')).json.data as Record<string, unknown>).publicKey);
  const enc = (pw: string) =>
    publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(pw)).toString('base64');
  const report = async (label: string) => {
    const m = await instance.memory();
    console.log(`${label.padEnd(8)} rss ${mb(m.rss)}  heapUsed ${mb(m.heapUsed)}  requests ${requests}  logins ${logins}`);
    return m;
  };

  console.log(`soak: ${SECONDS} s, ${CONCURRENCY} clients, ${STORE} store, admin app pid ${instance.ready.pid}`);
  const start = await report('start');
  const deadline = Date.now() + SECONDS * 1000;
  const ticker = setInterval(() => void report(`t+${Math.round((SECONDS * 1000 - (deadline - Date.now())) / 1000)}s`), 30_000);
  let ip = 0;
  const client = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const me = ++ip;
      const login = await call(
        base,
        'POST',
        '/auth/login',
        { 'x-forwarded-for': `10.${(me >> 16) & 255}.${(me >> 8) & 255}.${me & 255}` },
        { username: 'admin', password: enc('admin123') },
      );
      if (login.status !== 200) continue;
      logins++;
      const data = login.json.data as { accessToken: string; refreshToken: string };
      const auth = { authorization: `Bearer ${data.accessToken}` };
      for (let i = 0; i < 20 && Date.now() < deadline; i++) {
        await call(base, 'GET', '/auth/me', auth);
        await call(base, 'GET', '/system/user/list', auth);
      }
      await call(base, 'POST', '/examples/notices', auth, { title: `soak ${me}` });
      const refreshed = await call(base, 'POST', '/auth/refresh-token', {}, { refreshToken: data.refreshToken });
      const next = (refreshed.json.data as { accessToken?: string } | null)?.accessToken;
      await call(base, 'POST', '/auth/logout', { authorization: `Bearer ${next ?? data.accessToken}` });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  clearInterval(ticker);
  const end = await report('end');
  console.log(
    `statuses: ${[...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
  console.log(`RSS start ${mb(start.rss)} -> end ${mb(end.rss)} (${((end.rss / start.rss - 1) * 100).toFixed(1)} %)`);
  const fatal = instance.fatals.length > 0 || !instance.alive;
  await instance.stop();
  if (STORE === 'redis') {
    const c = new Redis(REDIS_URL);
    await deleteByPrefix(c, PREFIX);
    c.disconnect();
  }
  if (fatal || (statuses.get(500) ?? 0) > 0) {
    console.error('FAILED: the instance crashed or answered 500');
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
