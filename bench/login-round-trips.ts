/**
 * What the cap on concurrent sessions costs a login on Redis (session.max-login-count): store round
 * trips and Redis commands of one admin login (POST /auth/login, in process over the app's HTTP
 * callback) for
 *   - today's login: no cap (max-login-count -1; the login as it was before the cap existed), 12 live sessions,
 *   - a cap of 12 with 11 live sessions (nothing ends),
 *   - a cap of 12 with 12 live sessions (the login ends the oldest: the Sa-Token default's steady state).
 * Round trips are counted, not guessed: Redis sits behind a proxy that holds every reply for a set
 * delay, and a login's round trips are (median time at 155 ms − median time at 5 ms) / 150 ms, the two delays alternating: what
 * the login waited on Redis in sequence (BCrypt and everything else cancel out). Commands are
 * INFO commandstats deltas per login (the commands its scripts run included). Target: the 12-live
 * login at most one round trip more than today's.
 *
 *   npx tsx bench/login-round-trips.ts [samples=15]     (also run by `npm run bench`)
 */
import 'reflect-metadata';
import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import request from 'supertest';
import { silentLogger } from '../src/adapters/logging/pino-logger';
import { buildAdminApp } from '../src/main/admin';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';
import { median } from './build';
import { benchRedis } from './redis';

const LOW_MS = 5;
const HIGH_MS = 155;

/** A TCP proxy to Redis that holds each reply chunk `delayMs` (in order) before passing it on. */
async function delayProxy(target: { host: string; port: number }): Promise<{ port: number; delayMs: number; close(): void }> {
  const sockets = new Set<net.Socket>();
  const state = { delayMs: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      setTimeout(() => client.write(chunk), state.delayMs);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

async function commands(redis: Redis): Promise<number> {
  let total = 0;
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([a-z|_-]+):calls=(\d+)/.exec(line.trim());
    if (m && m[1] !== 'info') total += Number(m[2]);
  }
  return total;
}

export interface LoginCost {
  readonly scenario: string;
  readonly roundTrips: number;
  readonly commands: number;
}

/** One scenario: an admin app on Redis through the proxy, `live` sessions of the account before each timed login. */
async function measure(
  redisUrl: string,
  scenario: { name: string; maxLoginCount: number; live: number },
  samples: number,
): Promise<LoginCost> {
  const url = new URL(redisUrl);
  const proxy = await delayProxy({ host: url.hostname, port: Number(url.port) });
  const direct = new Redis(redisUrl);
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: {
      'svc.store': 'redis',
      'svc.redis.url': `redis://127.0.0.1:${proxy.port}`,
      'svc.redis.key-prefix': `agbench-rt:${process.pid}:${scenario.name}:`,
      'svc.trusted-proxies': '127.0.0.1,::1',
      'svc.crypto.worker-threads': 1,
      'session.max-login-count': scenario.maxLoginCount,
    },
  });
  const infra = createInfrastructure(config, { log: silentLogger });
  try {
    const cb = buildAdminApp(config, infra).app.callback();
    const pem = (await request(cb).get('/auth/getConfig')).body.data.publicKey as string;
    const password = publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from('admin123'));
    const body = { username: 'admin', password: password.toString('base64') };
    let n = 0;
    const login = async (): Promise<{ ms: number; token: string }> => {
      n++;
      const t = performance.now();
      const r = await request(cb)
        .post('/auth/login')
        .set('X-Forwarded-For', `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`)
        .send(body);
      const ms = performance.now() - t;
      if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);
      return { ms, token: r.body.data.accessToken as string };
    };
    const logout = (token: string) => request(cb).post('/auth/logout').set('Authorization', `Bearer ${token}`);
    // Before each timed login the account has exactly `live` sessions; the login's own is logged out
    // after it unless it is part of them (the 12-live steady state: each login ends one).
    const live: string[] = [];
    while (live.length < scenario.live) live.push((await login()).token);
    const timed = async (): Promise<{ ms: number; cmds: number }> => {
      const before = await commands(direct);
      const { ms, token } = await login();
      await new Promise((r) => setTimeout(r, 50)); // the login's background writes (audit) settle
      const cmds = (await commands(direct)) - before - 1; // minus the INFO above
      if (scenario.maxLoginCount > 0 && scenario.live >= scenario.maxLoginCount) {
        live.shift();
        live.push(token);
      } else await logout(token);
      // What the login and the logout left to do in the background (the audit trail's writes) ends
      // before the next timed login starts, or its round trips would delay that login's first.
      await new Promise((r) => setTimeout(r, 3 * proxy.delayMs + 100));
      return { ms, cmds };
    };
    for (let i = 0; i < 3; i++) await timed(); // warm-up: JIT, worker, script loading
    // Low and high delays alternate, so a change in the machine's load hits both alike.
    const low: Array<{ ms: number; cmds: number }> = [];
    const high: Array<{ ms: number; cmds: number }> = [];
    for (let i = 0; i < 2 * samples; i++) {
      proxy.delayMs = i % 2 === 0 ? LOW_MS : HIGH_MS;
      (i % 2 === 0 ? low : high).push(await timed());
    }
    const rt = (median(high.map((r) => r.ms)) - median(low.map((r) => r.ms))) / (HIGH_MS - LOW_MS);
    return { scenario: scenario.name, roundTrips: +rt.toFixed(2), commands: median([...low, ...high].map((r) => r.cmds)) };
  } finally {
    await infra.close();
    direct.disconnect();
    proxy.close();
  }
}

export async function measureLoginRoundTrips(redisUrl: string, samples = 15): Promise<{ rows: LoginCost[]; extra: number }> {
  const rows = [
    await measure(redisUrl, { name: 'today', maxLoginCount: -1, live: 12 }, samples),
    await measure(redisUrl, { name: 'cap12-11live', maxLoginCount: 12, live: 11 }, samples),
    await measure(redisUrl, { name: 'cap12-12live', maxLoginCount: 12, live: 12 }, samples),
  ];
  const extra = (rows[2] as LoginCost).roundTrips - (rows[0] as LoginCost).roundTrips;
  return { rows, extra: +extra.toFixed(2) };
}

export function describeLoginRoundTrips(r: { rows: LoginCost[]; extra: number }): string {
  const table = r.rows.map((x) => `${x.scenario}: ${x.roundTrips} round trips, ${x.commands} Redis commands`).join('; ');
  // Round trips are whole numbers; the measurement carries a few ms of noise (a tenth of a round trip or so).
  const met = Math.round(r.extra) <= 1;
  return (
    `login store cost (admin login on Redis; commands: INFO commandstats, those its scripts run included) ${table}; ` +
    `a cap of 12 with 12 live sessions costs ${r.extra} round trips more than today's login (target ≤ 1: ${met ? 'met' : 'MISSED'})`
  );
}

if (require.main === module) {
  void (async () => {
    const redis = await benchRedis();
    try {
      const r = await measureLoginRoundTrips(redis.url, Number(process.argv[2] ?? 15));
      console.log(describeLoginRoundTrips(r));
      const dir = path.join(__dirname, 'results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'login-round-trips.json'), JSON.stringify({ date: new Date().toISOString(), ...r }, null, 2));
    } finally {
      redis.stop();
    }
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
