/**
 * npm run bench, last step: what the audit trail costs (docs/audit.md#measured). In one process,
 * on a Redis of its own (bench/redis.ts):
 *  - web logins per second with the sinks off (svc.audit.sinks empty) and all on (store, log to
 *    /dev/null, webhook to a local endpoint), in alternating rounds; the target is >= 0.95x;
 *  - authenticated requests per second (GET /user/profile) with the sinks off and on: a read
 *    records nothing, so the ratio is about 1;
 *  - Redis memory per stored event (MEMORY USAGE of a stream of 100,000 events; goal <= 400 bytes);
 *  - the login-log search on a stream of 1,000,000 events (goal: a filtered page <= 50 ms).
 * Env: BENCH_AUDIT_ROUNDS (default 3), BENCH_AUDIT_LOGINS per round (default 150), BENCH_AUDIT_EVENTS
 * (default 1000000), BENCH_SECONDS per authenticated round (default 3).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import pino from 'pino';
import { UuidV7 } from '../src/application/audit/event-id';
import { eventOf, type SecurityEvent } from '../src/application/audit/security-event';
import type { AuditQuery } from '../src/application/ports/audit-store';
import { createPinoLogger } from '../src/adapters/logging/pino-logger';
import { RedisAuditStore } from '../src/adapters/redis/audit-store';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';
import { buildWebApp } from '../src/main/web';
import { median } from './build';
import { benchRedis } from './redis';

const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 3);
const LOGINS = Number(process.env.BENCH_AUDIT_LOGINS ?? 150);
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((r) => server.close(() => r())) };
}

/** A web app (sinks on or off) on its own port, on the bench Redis. */
async function webApp(redisUrl: string, on: boolean, hookUrl: string, prefix: string) {
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: {
      'svc.store': 'redis',
      'svc.redis.url': redisUrl,
      'svc.trusted-proxies': '127.0.0.1',
      'svc.crypto.worker-threads': 2,
      'svc.audit.sinks': on ? 'store,log,webhook' : '',
      'svc.audit.webhooks': JSON.stringify({ [hookUrl]: { secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` } }),
    },
  });
  const log = createPinoLogger({ level: 'info', destination: pino.destination('/dev/null') });
  const infra = createInfrastructure(config, { log, keyPrefix: prefix });
  const built = buildWebApp(config, infra);
  const server = await listen(built.app.callback());
  return { url: server.url, close: async () => (await server.close(), await infra.close()) };
}

let ipSeq = 0;
/** `n` logins, 16 at a time, each from its own address (the login rate limit is per IP); logins per second. */
async function loginRound(url: string, n: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const i = ipSeq++;
      const r = await fetch(`${url}/auth/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          'user-agent': CHROME,
        },
        body: JSON.stringify({ username: 'alice', password: 'alice-pass-123' }),
      });
      if (r.status !== 200) throw new Error(`login: ${r.status}`);
      await r.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return n / ((performance.now() - started) / 1000);
}

async function readRound(url: string, token: string): Promise<number> {
  const r = await autocannon({
    url: `${url}/user/profile`,
    connections: 50,
    duration: SECONDS,
    headers: { authorization: `Bearer ${token}` },
  });
  if (r.non2xx > 0) throw new Error(`GET /user/profile: ${r.non2xx} non-2xx`);
  return r.requests.average;
}

async function throughput(redisUrl: string): Promise<Record<string, number>> {
  const hook = await listen((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  const off = await webApp(redisUrl, false, hook.url, 'bench-audit-off:');
  const on = await webApp(redisUrl, true, hook.url, 'bench-audit-on:');
  const token = async (url: string) => {
    const r = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.255.1' },
      body: '{"username":"alice","password":"alice-pass-123"}',
    });
    return ((await r.json()) as { accessToken: string }).accessToken;
  };
  const [tOff, tOn] = [await token(off.url), await token(on.url)];
  await loginRound(off.url, 20);
  await loginRound(on.url, 20);
  const logins = { off: [] as number[], on: [] as number[], ratio: [] as number[] };
  const reads = { off: [] as number[], on: [] as number[], ratio: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const [a, b] = [await loginRound(off.url, LOGINS), await loginRound(on.url, LOGINS)];
    logins.off.push(a);
    logins.on.push(b);
    logins.ratio.push(b / a);
    const [c, d] = [await readRound(off.url, tOff), await readRound(on.url, tOn)];
    reads.off.push(c);
    reads.on.push(d);
    reads.ratio.push(d / c);
    console.log(
      `round ${round + 1}: logins/s off ${a.toFixed(1)} on ${b.toFixed(1)}; GET /user/profile req/s off ${c.toFixed(0)} on ${d.toFixed(0)}`,
    );
  }
  await Promise.all([off.close(), on.close(), hook.close()]);
  return {
    loginsPerSecondOff: median(logins.off),
    loginsPerSecondOn: median(logins.on),
    loginRatio: median(logins.ratio),
    readsPerSecondOff: median(reads.off),
    readsPerSecondOn: median(reads.on),
    readRatio: median(reads.ratio),
  };
}

/** Events shaped like real ones: 10,000 users, 10% failures, every field an event of the login log has. */
function events(n: number, start: number, ids: UuidV7): SecurityEvent[] {
  const ua = { os: 'Windows 10', browser: 'Chrome 120', deviceType: 'desktop' };
  return Array.from({ length: n }, (_, k) => {
    const i = start + k;
    const time = Date.now() - (EVENTS - i) * 2;
    const ok = i % 10 !== 0;
    return eventOf(
      {
        type: 'login',
        loginType: 'admin',
        outcome: ok ? 'success' : 'failure',
        ...(ok
          ? { userId: String(i % 10_000), tokenId: (i * 2654435761).toString(16).padStart(16, '0').slice(-16) }
          : { reason: 'bad-credentials' }),
        username: `user${i % 10_000}`,
        ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        requestId: '5b0e7c9a-1f2d-4e3b-8a6c-0d9e8f7a6b5c',
      },
      ids.next(time),
      time,
      ua,
    );
  });
}

async function storage(redisUrl: string): Promise<Record<string, number>> {
  const client = new Redis(redisUrl);
  const store = new RedisAuditStore(client, 'bench-audit-store:');
  const key = 'bench-audit-store:ev:admin:login';
  const ids = new UuidV7();
  const fillStarted = performance.now();
  let memoryPerEvent = 0;
  for (let i = 0; i < EVENTS; i += 500) {
    await store.append(events(Math.min(500, EVENTS - i), i, ids), 365 * 86_400_000);
    if (i + 500 === 100_000) memoryPerEvent = Number(await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) / 100_000;
  }
  const fillSeconds = (performance.now() - fillStarted) / 1000;
  const page = async (q: Partial<AuditQuery>): Promise<{ ms: number; found: number }> => {
    const times: number[] = [];
    let found = 0;
    for (let r = 0; r < 15; r++) {
      const t = performance.now();
      found = (await store.query({ loginType: 'admin', log: 'login', limit: 20, ...q })).list.length;
      times.push(performance.now() - t);
    }
    return { ms: median(times), found };
  };
  const now = Date.now();
  const newest = await page({});
  const failures = await page({ outcome: 'failure' });
  const user = await page({ username: 'user4242' });
  const window = await page({ from: now - EVENTS, to: now - EVENTS + 60_000, outcome: 'failure' });
  const rare = await page({ username: 'nobody' });
  await client.del(key, 'bench-audit-store:evb:admin:login');
  client.disconnect();
  const r = {
    events: EVENTS,
    fillEventsPerSecond: EVENTS / fillSeconds,
    memoryBytesPerEvent: memoryPerEvent,
    pageNewestMs: newest.ms,
    pageFailuresMs: failures.ms,
    pageUsernameMs: user.ms,
    pageUsernameFound: user.found,
    pageTimeWindowMs: window.ms,
    pageNoMatchMs: rare.ms,
  };
  return r;
}

async function main(): Promise<void> {
  const redis = await benchRedis();
  try {
    console.log(`audit bench on ${redis.description}`);
    const t = await throughput(redis.url);
    const s = await storage(redis.url);
    const result = { ...t, ...s };
    console.log(JSON.stringify(result, null, 2));
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results/audit.json'), JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2));
  } finally {
    redis.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
