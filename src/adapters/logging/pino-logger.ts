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
 * The access-log writer: the same logger without key-based redaction, which is most of the cost of
 * writing an access line (one per request). Safe only because the access line is a
 * fixed allowlist of fields (method, route template, path without query, status, duration, ip,
 * request id): no header, body or query string is ever passed to it.
 */
export function accessLoggerOf(base: PinoLogger): Logger {
  return loggerOf(base.raw.child({}, { redact: { paths: [], censor: '[REDACTED]' } } as pino.ChildLoggerOptions));
}

/** The Logger port over a pino logger. */
function loggerOf(raw: pino.Logger): Logger {
  return {
    debug: (o, m) => raw.debug(o, m),
    info: (o, m) => raw.info(o, m),
    warn: (o, m) => raw.warn(o, m),
    error: (o, m) => raw.error(o, m),
  };
}

type FlushableDestination = pino.DestinationStream & {
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
  readonly fd?: number;
  once?(event: 'ready', listener: () => void): unknown;
};

/**
 * A buffered asynchronous destination: lines are written in batches of at least `minLength`
 * bytes (and at least every `flushMs`), so a busy server does not make one write per line.
 * Call flush(cb) or flushSync() on shutdown; pending lines are also written when the process exits.
 *
 * The batching is done here, in an array joined once per batch, and sonic-boom (pino.destination)
 * gets whole batches: fed line by line, its utf8 mode re-measures (and so flattens) the whole pending
 * string on every append, i.e. O(n²) copying per batch.
 */
export function bufferedDestination(
  dest: string | number,
  flushMs = 1000,
  minLength = 4096,
): FlushableDestination & {
  /** Writes what is pending and stops the periodic flush (the file stays open for late writes). */
  close(): void;
  /** Resolves once the file is open (writes before that are kept and written when it is). */
  ready(): Promise<void>;
} {
  // minLength 1: each batch is written at once; (0 would make flush(cb) answer before the write is done)
  const boom = pino.destination({ dest, sync: false, minLength: 1 }) as FlushableDestination;
  let lines: string[] = [];
  let pending = 0;
  const drain = (): void => {
    if (lines.length === 0) return;
    const batch = lines.join('');
    lines = [];
    pending = 0;
    boom.write(batch);
  };
  const timer = setInterval(drain, flushMs);
  timer.unref();
  const flushSync = (): void => {
    drain();
    try {
      boom.flushSync();
    } catch {
      // not open yet (exit within the first milliseconds): the lines cannot be written synchronously
    }
  };
  onExit(flushSync);
  return {
    write(line: string): void {
      lines.push(line);
      pending += line.length;
      if (pending >= minLength) drain();
    },
    flush(cb?: (err?: Error) => void): void {
      drain();
      boom.flush(cb);
    },
    flushSync,
    ready: () =>
      new Promise<void>((resolve) => (typeof boom.fd === 'number' && boom.fd >= 0 ? resolve() : boom.once?.('ready', () => resolve()))),
    close(): void {
      clearInterval(timer);
      flushSync();
      exitHooks.delete(flushSync);
    },
  };
}

/** One process 'exit' listener for every buffered destination (no listener per instance). */
const exitHooks = new Set<() => void>();
let exitListening = false;
function onExit(hook: () => void): void {
  if (!exitListening) {
    exitListening = true;
    process.once('exit', () => exitHooks.forEach((h) => h()));
  }
  exitHooks.add(hook);
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
  return { raw, ...loggerOf(raw) };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
