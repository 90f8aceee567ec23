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
    doc: '`false`: a new login replaces the account\'s older tokens ("replaced")',
  }),
  'session.is-share': setting({
    schema: bool,
    default: false,
    doc: 'with concurrency, a second login gets the live token back',
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
