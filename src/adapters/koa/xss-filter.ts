/**
 * The spec's input filter: HTML-escapes query parameters and request-header values before any
 * handler sees them (through `ctx.query`, `ctx.get()` or `ctx.headers`). A value without special
 * characters stays byte-identical; JSON bodies are never touched (handlers validate them).
 *
 * - query names and values: `&` `<` `>` `"` `'` -> `&amp;` `&lt;` `&gt;` `&quot;` `&#39;` (reversible, and safe
 *   in HTML text and quoted attributes);
 * - header values: `&` `<` `>` only: quotes are header syntax (ETags, quoted parameters) and must survive;
 * - headers whose bytes must stay exact are left alone: credentials, signing and idempotency headers, cookies;
 * - a request that carries a body of such a type (multipart/*, application/octet-stream, application/pdf, image/*)
 *   is skipped entirely, as are excluded paths (`/exact` or `/prefix/**`). Carrying a body means a POST, PUT or
 *   PATCH whose body has at least one byte (a positive Content-Length, or a chunked body whose first byte has
 *   arrived); any other request is filtered whatever its Content-Type says.
 *
 * Defence in depth only: skipped requests carry raw values, and handlers must still encode their output.
 *
 * A route may name query parameters that are search terms (`searchTerms`, src/adapters/koa/routes.ts): compared with
 * stored text, never rendered. Its query validation reads those from the query string as sent (`unfilteredQuery`),
 * so a search for `R&D` looks for `R&D`; every other parameter, header and route is filtered as above.
 */
import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { AppContext, AppMiddleware } from './state';

export interface XssFilterOptions {
  readonly enabled: boolean;
  /** `/exact/path` or `/prefix/**`. */
  readonly excludePaths: readonly string[];
  /** Header names (any case) never rewritten. */
  readonly exemptHeaders: readonly string[];
}

/** Headers the filter never rewrites, besides the configured token and idempotency header names. */
export const EXACT_BYTES_HEADERS = [
  'Authorization',
  'Cookie',
  'X-Sign',
  'X-Nonce',
  'X-App-Key',
  'X-Timestamp',
  'X-Idempotent-Token',
  'Signature-Input',
  'Signature',
  'Content-Digest',
] as const;

const QUERY_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeQueryText(s: string): string {
  return /[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => QUERY_ESCAPES[c] as string) : s;
}

export function escapeHeaderText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => QUERY_ESCAPES[c] as string) : s;
}

export function isSkippedContentType(mime: string): boolean {
  const m = mime.toLowerCase();
  return m.startsWith('multipart/') || m.startsWith('image/') || m === 'application/octet-stream' || m === 'application/pdf';
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Whether a chunked body has at least one byte. Nothing is read: the bytes that arrived stay
 * buffered in the stream for whoever reads the body.
 */
function firstByteArrives(req: IncomingMessage): Promise<boolean> {
  if (req.readableLength > 0) return Promise.resolve(true);
  if (req.readableEnded || req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (): void => {
      req.off('readable', settle);
      req.off('close', settle);
      resolve(req.readableLength > 0);
    };
    req.on('readable', settle);
    req.on('close', settle);
  });
}

/** A POST, PUT or PATCH with a non-empty body: the only requests whose Content-Type describes content. */
async function carriesBody(ctx: AppContext): Promise<boolean> {
  if (!BODY_METHODS.has(ctx.method)) return false;
  const length = ctx.get('Content-Length');
  if (length !== '') return /^\d+$/.test(length) && Number(length) > 0;
  return ctx.get('Transfer-Encoding') !== '' && firstByteArrives(ctx.req);
}

export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of patterns) {
    if (p.endsWith('/**')) prefixes.push(p.slice(0, -3));
    else exact.add(p);
  }
  return (path) => exact.has(path) || prefixes.some((pre) => path === pre || path.startsWith(`${pre}/`));
}

/** The query string as the client sent it, of the requests whose query the filter rewrote. */
const SENT_QUERY = new WeakMap<IncomingMessage, string>();

/**
 * The query as the handler should read it when `names` are search terms: the filtered query, with the parameters
 * of `names` as the client sent them (absent ones stay absent). Nothing was escaped: the filtered query itself.
 */
export function unfilteredQuery(ctx: AppContext, names: readonly string[]): Record<string, string | string[] | undefined> {
  const sent = SENT_QUERY.get(ctx.req);
  if (sent === undefined || names.length === 0) return ctx.query;
  const raw = parseQueryString(sent);
  const out: Record<string, string | string[] | undefined> = { ...ctx.query };
  for (const name of names) {
    delete out[name];
    const value = raw[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export function xssFilter(opts: XssFilterOptions): AppMiddleware {
  const exempt = new Set(opts.exemptHeaders.map((h) => h.toLowerCase()));
  const excluded = pathMatcher(opts.excludePaths);
  return async function xssFilter(ctx, next) {
    // The content-type skip applies only to requests that carry such a body; any other request
    // cannot switch the filter off by naming a content type.
    if (!opts.enabled || excluded(ctx.path) || (isSkippedContentType(ctx.request.type) && (await carriesBody(ctx)))) {
      await next();
      return;
    }
    if (ctx.querystring !== '') {
      let changed = false;
      const clean: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(ctx.query)) {
        if (value === undefined) continue;
        const n = escapeQueryText(name);
        const v = Array.isArray(value) ? value.map(escapeQueryText) : escapeQueryText(value);
        if (n !== name || (Array.isArray(value) ? (v as string[]).some((x, i) => x !== value[i]) : v !== value)) changed = true;
        clean[n] = v;
      }
      if (changed) {
        SENT_QUERY.set(ctx.req, ctx.querystring);
        ctx.query = clean; // re-encodes the query string: ctx.query/ctx.querystring/ctx.url agree
      }
    }
    const headers = ctx.req.headers;
    for (const name in headers) {
      const value = headers[name];
      if (exempt.has(name) || value === undefined) continue;
      if (typeof value === 'string') {
        const v = escapeHeaderText(value);
        if (v !== value) headers[name] = v;
      } else if (Array.isArray(value)) {
        headers[name] = value.map(escapeHeaderText) as never;
      }
    }
    await next();
  };
}
