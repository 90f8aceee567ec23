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

export function createPinoLogger(opts: { level?: string; name?: string; destination?: pino.DestinationStream } = {}): Logger & { raw: pino.Logger } {
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
