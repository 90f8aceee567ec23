/**
 * The bench's server scenarios, one entry each: which server to start (a script under bench/,
 * compiled), with which arguments and environment, what request to drive it with, and the ratios
 * it must meet. `npm run bench` runs every entry in alternating rounds against the bare-Koa
 * baseline (the first entry). To add a scenario, append an entry; nothing else changes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { BENCH_APP } from './servers/authguard';

import type { Ready } from './build';

export type { Ready };

export interface RequestSpec {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Rewrites each request before it is sent (fresh nonce and signature, client address, ...). */
  setupRequest?: (req: { headers?: Record<string, string>; body?: string }) => { headers?: Record<string, string>; body?: string };
}

/**
 * A ratio a scenario must meet, printed as a target line. `rps` and `cpu` are divided by the same
 * figure of `vs` (default: the baseline) in the same run; `redis` is Redis commands per request, absolute.
 */
export interface Target {
  readonly metric: 'rps' | 'cpu' | 'redis';
  readonly vs?: string;
  readonly min?: number;
  readonly max?: number;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** The server, a .ts file under bench/ (run compiled, from bench/.build). */
  readonly script: string;
  readonly args?: readonly string[];
  /** Extra environment of the server process: configuration keys by their environment names. */
  readonly env?: Readonly<Record<string, string>>;
  /** Redis commands per request are counted (INFO commandstats deltas around each round). */
  readonly usesRedis: boolean;
  request(ready: Ready): RequestSpec;
  readonly targets?: readonly Target[];
}

/**
 * The authenticated GET of the full-stack and peer scenarios: /auth/me (login required; the user
 * as JSON), the same work in the peer. BENCH_AUTH_PATH=/system/user/list measures the
 * permission-checked list instead (the peer's route of that name answers less: bench/peers).
 */
export const AUTH_PATH = process.env.BENCH_AUTH_PATH ?? '/auth/me';

const bearer = (r: Ready): RequestSpec => ({ path: AUTH_PATH, headers: { authorization: `Bearer ${r.token}` } });

/** A 1 KiB JSON body, signed afresh for every request (the nonce is single use). */
const SIGNED_BODY = JSON.stringify({ payload: 'x'.repeat(1024 - 16) });
function signedRequest(): RequestSpec {
  return {
    path: '/open/echo',
    method: 'POST',
    setupRequest: (req) => {
      const ts = String(Date.now());
      const nonce = randomBytes(12).toString('hex');
      const sign = createHmac('sha256', BENCH_APP.secret)
        .update(BENCH_APP.key + ts + nonce + SIGNED_BODY)
        .digest('hex');
      return {
        ...req,
        body: SIGNED_BODY,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'x-app-key': BENCH_APP.key,
          'x-timestamp': ts,
          'x-nonce': nonce,
          'x-sign': sign,
        },
      };
    },
  };
}

export const BASELINE = 'baseline';

export const SCENARIOS: readonly Scenario[] = [
  {
    name: BASELINE,
    description: 'bare Koa, one JSON route',
    script: 'bench/servers/bare-koa.ts',
    usesRedis: false,
    request: () => ({ path: '/hello' }),
  },
  {
    name: 'thin-memory',
    description: 'reference floor: Koa + router + token Map + permission set, nothing else',
    script: 'bench/servers/thin-koa.ts',
    args: ['memory'],
    usesRedis: false,
    request: (r) => ({ path: '/system/user/list', headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'thin-redis',
    description: 'reference floor on Redis: the same with one ioredis GET (auto-pipelined)',
    script: 'bench/servers/thin-koa.ts',
    args: ['redis'],
    usesRedis: true,
    request: (r) => ({ path: '/system/user/list', headers: { authorization: `Bearer ${r.token}` } }),
  },
  {
    name: 'admin-memory',
    description: `admin ${AUTH_PATH}, full stack, in-memory store`,
    script: 'bench/servers/authguard.ts',
    args: ['memory'],
    usesRedis: false,
    request: bearer,
    targets: [
      { metric: 'rps', min: 0.5 },
      { metric: 'cpu', max: 2 },
      { metric: 'cpu', vs: 'admin-redis', max: 1 },
    ],
  },
  {
    name: 'admin-redis',
    description: `admin ${AUTH_PATH}, full stack, Redis store`,
    script: 'bench/servers/authguard.ts',
    args: ['redis'],
    usesRedis: true,
    request: bearer,
    targets: [
      { metric: 'rps', min: 0.45 },
      // At most one command per request: the reads of one tick share one MGET (src/adapters/redis/command-per-tick.ts).
      { metric: 'redis', max: 1.01 },
    ],
  },
  {
    name: 'admin-redis-cache',
    description: `admin ${AUTH_PATH}, full stack, Redis store, local session cache on`,
    script: 'bench/servers/authguard.ts',
    args: ['redis'],
    usesRedis: true,
    env: { SESSION_LOCAL_CACHE_ENABLED: 'true' },
    request: bearer,
    targets: [
      { metric: 'rps', vs: 'admin-memory', min: 0.9 },
      { metric: 'rps', vs: 'express-passport', min: 5 },
      { metric: 'redis', max: 0.05 },
    ],
  },
  {
    name: 'admin-routes-memory',
    description: 'admin GET /auth/routes, a tree of 204 menus seen whole (*:*:*), full stack, in-memory store',
    script: 'bench/servers/authguard.ts',
    args: ['memory', 'admin', 'routes'],
    usesRedis: false,
    request: (r) => ({ path: '/auth/routes', headers: { authorization: `Bearer ${r.token}` } }),
    // Within 2× the cost of GET /auth/me (issue 28): at least half its requests per second, at most twice its CPU.
    targets: [
      { metric: 'rps', vs: 'admin-memory', min: 0.5 },
      { metric: 'cpu', vs: 'admin-memory', max: 2 },
    ],
  },
  {
    name: 'admin-routes-redis',
    description: 'admin GET /auth/routes, a tree of 204 menus seen whole (*:*:*), full stack, Redis store',
    script: 'bench/servers/authguard.ts',
    args: ['redis', 'admin', 'routes'],
    usesRedis: true,
    request: (r) => ({ path: '/auth/routes', headers: { authorization: `Bearer ${r.token}` } }),
    targets: [
      { metric: 'rps', vs: 'admin-redis', min: 0.5 },
      // The session read only: the menu tree is kept in memory.
      { metric: 'redis', max: 1.01 },
    ],
  },
  {
    name: 'public-redis',
    description: 'public GET /auth/getConfig on the Redis-backed admin app (needs no store)',
    script: 'bench/servers/authguard.ts',
    args: ['redis'],
    usesRedis: true,
    request: () => ({ path: '/auth/getConfig' }),
    targets: [{ metric: 'redis', max: 0.01 }],
  },
  {
    name: 'signed-post-redis',
    description: 'signed POST /open/echo, 1 KiB body, Redis nonce store',
    script: 'bench/servers/authguard.ts',
    args: ['redis'],
    usesRedis: true,
    request: () => signedRequest(),
    targets: [{ metric: 'redis', min: 0.99, max: 1.01 }],
  },
  {
    name: 'express-passport',
    description: `Express + Passport + express-session + connect-redis, ${AUTH_PATH}`,
    script: 'bench/peers/express-passport.ts',
    usesRedis: true,
    request: (r) => ({ path: AUTH_PATH, headers: { cookie: r.cookie ?? '' } }),
  },
];
