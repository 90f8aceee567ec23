/** The Logger port on pino, with secrets redacted wherever they may appear. */
import pino from 'pino';
import type { Logger } from '../../application/ports/logger';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-sign"]',
  'req.headers["x-idempotent-token"]',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-sign"]',
  'headers["x-idempotent-token"]',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-sign"]',
  'body',
  '*.body',
  'rawBody',
  '*.rawBody',
  '*.newPassword',
  '*.oldPassword',
  '*.shareSecret',
  'newPassword',
  'oldPassword',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  'password',
  'token',
  'accessToken',
  'refreshToken',
  'secret',
  '*.secret',
];

export type PinoLogger = Logger & { raw: pino.Logger };

/**
 * The access-log writer: the same logger without key-based redaction, which costs ~15 µs a line
 * (measured: scratch benchmark, 18 µs vs 3.5 µs per line). Safe only because the access line is a
 * fixed allowlist of fields (method, route template, path without query, status, duration, ip,
 * request id): no header, body or query string is ever passed to it.
 */
export function accessLoggerOf(base: PinoLogger): Logger {
  const raw = base.raw.child({}, { redact: { paths: [], censor: '[REDACTED]' } } as pino.ChildLoggerOptions);
  return {
    debug: (o, m) => raw.debug(o, m),
    info: (o, m) => raw.info(o, m),
    warn: (o, m) => raw.warn(o, m),
    error: (o, m) => raw.error(o, m),
  };
}

/**
 * A buffered asynchronous destination: lines are written in batches of at least `minLength`
 * bytes (and at least every `flushMs`), so a busy server does not make one write per line.
 * Call flushSync() on shutdown.
 */
export function bufferedDestination(dest: string | number, flushMs = 1000): pino.DestinationStream & { flushSync(): void } {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: flushMs } as never) as never;
}

export function createPinoLogger(opts: { level?: string; name?: string; destination?: pino.DestinationStream } = {}): PinoLogger {
  const raw = pino(
    {
      name: opts.name ?? 'authguard',
      level: opts.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: pino.stdSerializers.err },
    },
    opts.destination,
  );
  return {
    raw,
    debug: (o, m) => raw.debug(o, m),
    info: (o, m) => raw.info(o, m),
    warn: (o, m) => raw.warn(o, m),
    error: (o, m) => raw.error(o, m),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
