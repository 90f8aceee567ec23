/**
 * The Node HTTP server around a Koa app: slow-client timeouts, and requests that Node's own
 * parser rejects (malformed request line or headers, headers over the size limit, timeouts)
 * still answered in the app's format instead of Node's bare "400 Bad Request".
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Reason } from '../../domain/errors';
import { ERROR_CATALOGUE } from './error-catalogue';

/** What Node's parser answers, before any route is matched, for a request of any route. */
export const PARSER_REASONS: readonly Reason[] = ['malformed-request', 'headers-too-large', 'request-timeout'];

export interface HttpServerOptions {
  readonly format: 'envelope' | 'problem';
  readonly problemBaseUri?: string;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly keepAliveTimeoutMs?: number;
}

function parserErrorBody(opts: HttpServerOptions, reason: Reason): { status: number; type: string; body: string } {
  const entry = ERROR_CATALOGUE[reason];
  const detail = `${entry.title}.`;
  if (opts.format === 'envelope') {
    return { status: entry.status, type: 'application/json', body: JSON.stringify({ code: entry.code, message: detail, data: null }) };
  }
  const body = {
    type: `${opts.problemBaseUri ?? 'about:blank#'}${reason}`,
    title: entry.title,
    status: entry.status,
    detail,
    instance: 'urn:request:unparsed',
    code: reason,
  };
  return { status: entry.status, type: 'application/problem+json', body: JSON.stringify(body) };
}

export function createHttpServer(handler: http.RequestListener, opts: HttpServerOptions): http.Server {
  const server = http.createServer(handler);
  server.headersTimeout = opts.headersTimeoutMs ?? 15_000;
  server.requestTimeout = opts.requestTimeoutMs ?? 30_000;
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 5_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const reason: Reason =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'headers-too-large'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'request-timeout'
          : 'malformed-request';
    const { status, type, body } = parserErrorBody(opts, reason);
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: ` +
        `${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
