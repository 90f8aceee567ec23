/**
 * Forgot-password timing: does `POST /auth/forgot-password` reveal whether an address belongs to
 * an account? Alternates requests for known and unknown addresses against the real web app (in
 * process, over its HTTP callback, embedded mailbox, the in-memory store or BENCH_REDIS_URL's
 * Redis), and reports both medians of the request's time and their ratio (target 0.9-1.1). The work the route leaves for after the
 * answer (lookup, token, message) is awaited between samples, outside the measured time, so it
 * never lands in the next sample.
 *
 *   [BENCH_REDIS_URL=redis://...] npx tsx bench/forgot-timing.ts [samplesPerKind=300]
 *   (also run by `npm run bench`, on the in-memory store; a few seconds)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import bcrypt from 'bcryptjs';
import request from 'supertest';
import { silentLogger } from '../src/adapters/logging/pino-logger';
import { ACCOUNT_MAIL_LIMITS } from '../src/adapters/koa/routes/account-routes';
import { BackgroundWork } from '../src/application/shared/background-work';
import { TOKENS } from '../src/application/tokens';
import { loadConfig } from '../src/main/config';
import { createInfrastructure } from '../src/main/infrastructure';
import { buildWebApp } from '../src/main/web';
import { deleteByPrefix } from '../test/support/services';
import { median } from './build';

export interface ForgotTiming {
  readonly samplesPerKind: number;
  readonly store: 'memory' | 'redis';
  readonly knownMedianMs: number;
  readonly unknownMedianMs: number;
  /** known / unknown. */
  readonly ratio: number;
}

const ip = (n: number): string => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** `redisUrl`: on the Redis store (a key prefix of its own, removed at the end), where the lookup and the token cost round trips. */
export async function measureForgotTiming(samples = 300, redisUrl?: string): Promise<ForgotTiming> {
  const store = redisUrl === undefined ? {} : { 'svc.store': 'redis', 'svc.redis.url': redisUrl };
  const config = loadConfig({
    env: { APP_PROFILE: 'test' },
    overrides: { 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.crypto.worker-threads': 2, ...store },
  });
  const keyPrefix = `bench-forgot-${randomBytes(4).toString('hex')}:`;
  const infra = createInfrastructure(config, { log: silentLogger, keyPrefix });
  try {
    const built = buildWebApp(config, infra);
    const cb = built.app.callback();
    const background = built.container.get(BackgroundWork);
    // Each known address is asked for at most its per-address limit: enough members for every sample,
    // created in the directory itself (one BCrypt hash for all of them; registration would hash each).
    const perAddress = ACCOUNT_MAIL_LIMITS.forgotAddress.limit;
    const members = Math.ceil((samples + 5) / perAddress);
    const directory = built.container.get(TOKENS.UserDirectory);
    const passwordHash = bcrypt.hashSync('timing-pass-1', 10);
    for (let m = 0; m < members; m++) {
      const res = await directory.create({
        username: `timing-${m}`,
        passwordHash,
        nickname: `timing-${m}`,
        roles: [],
        email: `timing-${m}@example.org`,
      });
      if (!res.ok) throw new Error(`member timing-${m}: ${res.reason}`);
    }
    let n = 0;
    const once = async (email: string): Promise<number> => {
      n++;
      const t = performance.now();
      const res = await request(cb).post('/auth/forgot-password').set('X-Forwarded-For', ip(n)).send({ email });
      const ms = performance.now() - t;
      if (res.status !== 202) throw new Error(`expected 202, got ${res.status} ${res.text}`);
      await background.idle();
      return ms;
    };
    const known = (i: number): string => `Timing-${Math.floor(i / perAddress) % members}@example.org`;
    for (let i = 0; i < 5; i++) await once(i % 2 ? known(samples + i) : `warm-${i}@example.org`); // JIT, first lookups
    const k: number[] = [];
    const u: number[] = [];
    for (let i = 0; i < samples; i++) {
      // alternate the order too, so drift in machine load hits both kinds alike
      if (i % 2 === 0) {
        k.push(await once(known(i)));
        u.push(await once(`nobody-${i}@example.org`));
      } else {
        u.push(await once(`nobody-${i}@example.org`));
        k.push(await once(known(i)));
      }
    }
    const km = median(k);
    const um = median(u);
    return {
      samplesPerKind: samples,
      store: redisUrl === undefined ? 'memory' : 'redis',
      knownMedianMs: +km.toFixed(3),
      unknownMedianMs: +um.toFixed(3),
      ratio: +(km / um).toFixed(3),
    };
  } finally {
    await infra.close();
    if (redisUrl !== undefined) {
      const redis = new Redis(redisUrl);
      await deleteByPrefix(redis, keyPrefix);
      redis.disconnect();
    }
  }
}

export function describeForgotTiming(t: ForgotTiming): string {
  const ok = t.ratio >= 0.9 && t.ratio <= 1.1;
  return (
    `forgot-password timing (${t.store} store, ${t.samplesPerKind} alternating samples each): known address median ${t.knownMedianMs} ms, ` +
    `unknown address median ${t.unknownMedianMs} ms, ratio ${t.ratio} (target 0.9-1.1: ${ok ? 'met' : 'MISSED'})`
  );
}

if (require.main === module) {
  measureForgotTiming(Number(process.argv[2] ?? 300), process.env.BENCH_REDIS_URL)
    .then((t) => {
      console.log(describeForgotTiming(t));
      const dir = path.join(__dirname, 'results');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'forgot-timing.json'), JSON.stringify({ date: new Date().toISOString(), ...t }, null, 2));
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
