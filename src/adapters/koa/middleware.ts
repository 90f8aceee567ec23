/** Edge middleware shared by both apps, as named factories. */
import { randomUUID } from 'node:crypto';
import bodyParser from 'koa-bodyparser';
import { DomainError, isDomainError, type Reason } from '../../domain/errors';
import type { Logger } from '../../application/ports/logger';
import { CheckPhaseStart } from '../check-phase-start';
import { resolveClientIp, type TrustedProxies } from './client-ip';
import type { AppMiddleware, Responder } from './state';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request id (honours a well-formed incoming X-Request-Id), client IP and the app's responder.
 * The requests whose headers were read in one turn of the event loop start together, in its check
 * phase (CheckPhaseStart): each then runs the edge one await step at a time beside the others, instead of
 * running as far as it can before the next socket is read (docs/performance.md).
 */
export function requestContext(opts: { responder: Responder; trustedProxies: TrustedProxies; realm: string }): AppMiddleware {
  const start = new CheckPhaseStart();
  return Object.assign(
    async function requestContext(ctx: Parameters<AppMiddleware>[0], next: Parameters<AppMiddleware>[1]) {
      await start.answer(undefined);
      const incoming = ctx.get('X-Request-Id');
      ctx.state.requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
      ctx.set('X-Request-Id', ctx.state.requestId);
      ctx.state.clientIp = resolveClientIp(ctx.req.socket.remoteAddress, ctx.req.headers['x-forwarded-for'], opts.trustedProxies);
      ctx.state.responder = opts.responder;
      (ctx.state as { realm?: string }).realm = opts.realm;
      await next();
    },
    { [STARTS_IN_CHECK_PHASE]: true },
  );
}

/** Marks the edge that starts every request in its turn's check phase (requestContext). */
const STARTS_IN_CHECK_PHASE = Symbol('starts requests in the check phase');

/**
 * Why the app does NOT start every request in the check phase of the turn that read it, or null
 * when it does: its first middleware is requestContext. The local session cache answers hits at
 * once only behind that edge (hitOrdering 'caller'); anything else must let it wait its own turn.
 */
export function checkPhaseEdgeProblem(middleware: readonly unknown[]): string | null {
  const first = middleware[0] as { [STARTS_IN_CHECK_PHASE]?: boolean; name?: string } | undefined;
  if (first?.[STARTS_IN_CHECK_PHASE] === true) return null;
  return (
    `the first middleware is ` +
    `${first === undefined ? 'missing' : `"${first.name || 'anonymous'}"`}, not requestContext ` +
    `(its CheckPhaseStart starts each request after the I/O of its turn)`
  );
}

/** Errors thrown by the body parser (co-body / raw-body) carry an HTTP status; map it to a reason. */
function reasonOfHttpError(err: { status?: unknown; statusCode?: unknown; type?: unknown }): Reason | null {
  const status = typeof err.status === 'number' ? err.status : typeof err.statusCode === 'number' ? err.statusCode : 0;
  if (status === 413) return 'payload-too-large';
  if (status === 415) return 'unsupported-media-type';
  // co-body marks JSON syntax errors only with status 400; the body parser is the only source of raw 400s.
  if (status === 400) return 'malformed-json';
  if (status === 404) return 'not-found';
  if (status === 405) return 'method-not-allowed';
  return null;
}

const MESSAGES: Partial<Record<Reason, string>> = {
  'payload-too-large': 'The request body exceeds the size limit.',
  'unsupported-media-type': 'Send the request body as application/json.',
  'malformed-json': 'The request body could not be parsed as a JSON object or array.',
  'validation-failed': 'The request could not be read.',
  'not-found': 'No resource matches this path.',
  'method-not-allowed': 'This method is not allowed on this path.',
};

/** Headers a handler may set that an error response keeps (the request id and rate-limit state). */
const KEEP_ON_ERROR: readonly string[] = ['x-request-id', 'ratelimit', 'ratelimit-policy'];

/**
 * The one error edge, first in the chain: every failure leaves in the app's own format.
 * Unknown errors become a generic 500; the detail goes to the log only.
 */
export function errorEdge(opts: { log: Logger }): AppMiddleware {
  return async function errorEdge(ctx, next) {
    // Headers set before the edge (request id, CORS) survive an error; the security headers are set
    // after it. Node keeps header names lower-cased.
    const outer = ctx.res.getHeaderNames();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new DomainError('not-found', MESSAGES['not-found'] as string);
    } catch (e) {
      let err: DomainError;
      if (isDomainError(e)) {
        err = e;
        if (e.reason === 'internal-error' || e.reason === 'store-unavailable') {
          opts.log.error({ requestId: ctx.state.requestId, reason: e.reason, err: e.extras.cause ?? e }, e.message);
        }
      } else {
        const reason = reasonOfHttpError((e ?? {}) as Record<string, unknown>);
        if (reason !== null) {
          err = new DomainError(reason, MESSAGES[reason] as string);
        } else {
          opts.log.error({ requestId: ctx.state.requestId, err: e }, 'unhandled error');
          err = new DomainError('internal-error', 'An unexpected error occurred.');
        }
      }
      // Headers set by handlers before the failure (except those the error sets) are dropped.
      for (const name of ctx.res.getHeaderNames()) {
        if (!KEEP_ON_ERROR.includes(name) && !outer.includes(name)) ctx.remove(name);
      }
      ctx.state.responder.error(ctx, err);
    }
  };
}

/** The `&`-separated, non-empty pairs of a query string (what a query parser reads as parameters). */
export function countQueryParams(querystring: string): number {
  let n = 0;
  let start = 0;
  while (start <= querystring.length) {
    const end = querystring.indexOf('&', start);
    const stop = end === -1 ? querystring.length : end;
    if (stop > start) n++;
    start = stop + 1;
  }
  return n;
}

/** Node's querystring (under ctx.query) reads at most this many `&`-separated segments, empty ones included. */
const NODE_QUERY_MAX_KEYS = 1000;

/** Whether Node's querystring would stop reading before the end: more segments than it reads, empty ones included. */
export function exceedsNodeQueryKeys(querystring: string): boolean {
  let segments = 1;
  for (let i = querystring.indexOf('&'); i !== -1; i = querystring.indexOf('&', i + 1)) {
    if (++segments > NODE_QUERY_MAX_KEYS) return true;
  }
  return false;
}

/**
 * Refuses a query string with more than `max` parameters, counted on the raw string, and one
 * Node's querystring would cut short (more than 1,000 segments, `&&&` padding included): the
 * parser keeps the first 1,000 and drops the rest without a word.
 */
export function queryParamLimit(max: number): AppMiddleware {
  return async function queryParamLimit(ctx, next) {
    const qs = ctx.querystring;
    if (qs.length > Math.min(max, NODE_QUERY_MAX_KEYS) && (countQueryParams(qs) > max || exceedsNodeQueryKeys(qs))) {
      throw new DomainError('too-many-query-params', `The query string has more than ${max} parameters.`);
    }
    await next();
  };
}

/** What the shared edge may answer any request with: an over-long query string, and a bug (500). */
export const EDGE_REASONS: readonly Reason[] = ['too-many-query-params', 'internal-error'];

/** The methods whose body the JSON parser reads. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What `jsonBody` may answer a request of a body method with, whether or not its route reads a
 * body: bad JSON, too large, not JSON (or compressed), nested too deep.
 */
export const JSON_BODY_REASONS: readonly Reason[] = ['malformed-json', 'payload-too-large', 'unsupported-media-type', 'validation-failed'];

/** Whether the request carries a body (a non-zero Content-Length, or a chunked one). */
export function hasBody(ctx: { get(name: string): string }): boolean {
  const len = ctx.get('Content-Length');
  if (len !== '') return len !== '0';
  return ctx.get('Transfer-Encoding') !== '';
}

/**
 * JSON bodies only, size-limited; the raw bytes are kept (`ctx.request.rawBody`) for signatures.
 * A body of any other content type answers 415; an over-long body 413; bad JSON 400.
 */
export function jsonBody(opts: { limitBytes: number }): AppMiddleware {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${opts.limitBytes}b`,
    strict: true,
    onerror: (err) => {
      throw err;
    },
  });
  return async function jsonBody(ctx, next) {
    if (!hasBody(ctx) || !BODY_METHODS.has(ctx.method)) {
      // Nothing to read, or a body on GET/HEAD/OPTIONS, which no route reads: left unread (Node
      // discards it), so it is never inflated or parsed past the checks below. What the parser
      // sets for an empty body: an empty object, no raw body.
      (ctx.request as { body?: unknown }).body = {};
      await next();
      return;
    }
    if (!ctx.is('application/json', '+json')) {
      throw new DomainError('unsupported-media-type', MESSAGES['unsupported-media-type'] as string);
    }
    // Compressed request bodies are not accepted: a broken gzip stream must not reach zlib as a 500,
    // and the size limit must apply to what is parsed (no decompression bombs).
    const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
    if (encoding !== '' && encoding !== 'identity') {
      throw new DomainError('unsupported-media-type', 'Content-Encoding is not supported: send the JSON body uncompressed.');
    }
    const declared = Number(ctx.get('Content-Length'));
    if (Number.isFinite(declared) && declared > opts.limitBytes) {
      throw new DomainError('payload-too-large', MESSAGES['payload-too-large'] as string);
    }
    await (parse as unknown as AppMiddleware)(ctx, async () => {
      const body = (ctx.request as { body?: unknown }).body;
      if (body !== null && typeof body === 'object' && jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
        throw new DomainError('validation-failed', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
          errors: [{ pointer: '', detail: `nesting deeper than ${MAX_JSON_DEPTH} levels` }],
        });
      }
      await next();
    });
  };
}

/** No handler needs deeper JSON; recursive code downstream (canonicalisation, validation) stays safe. */
export const MAX_JSON_DEPTH = 32;

/** Iterative (no recursion, so no stack overflow on hostile input). */
export function jsonDepthExceeds(root: object, max: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
