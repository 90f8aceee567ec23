/** session.*: tokens, their lifetimes and the local session cache. */
import { z } from 'zod';
import { setting } from '../setting';
import { bool, int, nonEmpty, secondsOrOff, str } from '../values';

export const SESSION_KEYS = {
  'session.token-name': setting({
    schema: nonEmpty,
    default: 'Authorization',
    doc: 'header carrying the token',
  }),
  'session.token-prefix': setting({
    schema: str,
    default: 'Bearer',
    doc: 'scheme before the token (case-insensitive); empty = bare token',
  }),
  'session.timeout': setting({
    schema: secondsOrOff,
    default: 604800,
    doc: 'absolute token lifetime in seconds; `-1` never expires',
  }),
  'session.active-timeout': setting({
    schema: secondsOrOff,
    default: -1,
    doc: 'idle limit in seconds; `-1` off; an idle token is "frozen"',
  }),
  'session.is-concurrent': setting({
    schema: bool,
    default: true,
    doc:
      '`false`: one live session per account and `replaced-range`; `replaced-login-exit-mode` says whether a new login ' +
      'replaces it ("replaced") or is refused',
  }),
  'session.is-share': setting({
    schema: bool,
    default: false,
    doc: 'with concurrency, a second login of the same device type gets the live token back',
  }),
  'session.replaced-range': setting({
    schema: z.enum(['CURR_DEVICE_TYPE', 'ALL_DEVICE_TYPE'], { message: 'expected CURR_DEVICE_TYPE or ALL_DEVICE_TYPE' }),
    default: 'CURR_DEVICE_TYPE',
    doc:
      "Sa-Token's `replacedRange`: with `is-concurrent=false`, a login replaces the sessions of its own device type " +
      '(`CURR_DEVICE_TYPE`) or every session of the account (`ALL_DEVICE_TYPE`)',
  }),
  'session.replaced-login-exit-mode': setting({
    schema: z.enum(['OLD_DEVICE', 'NEW_DEVICE'], { message: 'expected OLD_DEVICE or NEW_DEVICE' }),
    default: 'OLD_DEVICE',
    doc:
      "Sa-Token 1.45's `replacedLoginExitMode`: with `is-concurrent=false`, `OLD_DEVICE` (the new login wins, the sessions " +
      'in `replaced-range` answer 401 `token-replaced`) or `NEW_DEVICE` (while the account has a live session, of any device ' +
      'type as in Sa-Token, a login is refused 409 `already-logged-in`)',
  }),
  'session.max-login-count': setting({
    schema: int(-1, 100_000).refine((n) => n === -1 || n >= 1, 'expected -1 (no cap) or at least 1'),
    default: 12,
    doc:
      "Sa-Token's `maxLoginCount`: most live sessions of one account (per login type); a login beyond it ends the " +
      'oldest by `overflow-logout-mode`; `-1` no cap; only with `is-concurrent=true` and `is-share=false`',
  }),
  'session.overflow-logout-mode': setting({
    schema: z.enum(['LOGOUT', 'KICKOUT', 'REPLACED'], { message: 'expected LOGOUT, KICKOUT or REPLACED' }),
    default: 'LOGOUT',
    doc:
      "Sa-Token's `overflowLogoutMode`: how the sessions over `max-login-count` end: `LOGOUT` (401 `token-invalid`), " +
      '`KICKOUT` (401 `token-kicked-out`) or `REPLACED` (401 `token-replaced`)',
  }),
  'session.no-remember-timeout': setting({
    schema: int(60, 100 * 366 * 86400),
    default: 86400,
    doc:
      'lifetime in seconds of a session logged in with `rememberMe: false` (no refresh token either); at most ' +
      '`timeout` (a longer value is cut to it)',
  }),
  'session.tombstone-retention': setting({
    schema: int(60, 100 * 366 * 86400),
    default: 86400,
    doc:
      'seconds a kicked-out, replaced or over-the-cap session keeps answering 401 `token-kicked-out` / `token-replaced` ' +
      '(its tombstone; never longer than the session would have lived); after it the token is unknown (401 ' +
      '`token-invalid`); at least 60. On Redis; the memory store keeps tombstones as long as the session would have lived',
  }),
  'session.is-read-cookie': setting({
    schema: bool,
    default: false,
    doc:
      '`false`: no token is read from a cookie; `true`: without a token header, a cookie named ' +
      'like `token-name` may carry the bare token',
  }),
  'session.token-style': setting({
    schema: z.enum(['uuid', 'simple-uuid', 'random-64']),
    default: 'uuid',
    doc: '`uuid`, `simple-uuid` (32 hex) or `random-64`',
  }),
  'session.is-log': setting({
    schema: bool,
    default: false,
    doc: 'debug logs of the session core (hashes only, never tokens)',
  }),
  'session.is-print': setting({
    schema: bool,
    default: false,
    doc: 'start-up banner (on in dev)',
  }),
  'session.share-secret': setting({
    schema: str,
    default: '',
    secret: true,
    hmac: {},
    doc: 'secret (32+ chars) shared tokens are re-derived from; required when `is-share`',
  }),
  'session.local-cache.enabled': setting({
    schema: bool,
    default: false,
    doc:
      '`svc.store=redis`: keep recently used sessions in the process, kept coherent by Redis ' +
      'client-side caching (two more Redis connections per process; logout, kickout and session ' +
      'changes elsewhere are still seen at once). Ignored, with a warning, with ' +
      '`svc.store=memory`; refused with `svc.redis.mode=cluster`. See [sessions.md](sessions.md#local-session-cache)',
  }),
  'session.local-cache.max-entries': setting({
    schema: int(1, 10_000_000),
    default: 10_000,
    doc: 'most sessions the cache holds (least recently used dropped first); about 1 KiB each',
  }),
  'session.local-cache.ttl-ms': setting({
    schema: int(100, 86_400_000),
    default: 60_000,
    doc: 'longest a cached session is used before it is read from Redis again (100 ms .. 24 h), a safety net beside the invalidations',
  }),
};
