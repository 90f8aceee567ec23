/**
 * The spec's input filter: HTML-escapes query parameters and request-header values before any
 * handler sees them (through `ctx.query`, `ctx.get()` or `ctx.headers`). A value without special
 * characters stays byte-identical; JSON bodies are never touched (handlers validate them).
 *
 * - query names and values: `&` `<` `>` `"` `'` -> `&amp;` `&lt;` `&gt;` `&quot;` `&#39;` (reversible, and safe
 *   in HTML text and quoted attributes);
 * - header values: `&` `<` `>` only: quotes are header syntax (ETags, quoted parameters) and must survive;
 * - headers whose bytes must stay exact are left alone: credentials, signing and idempotency headers, cookies;
 * - requests whose Content-Type is multipart/*, application/octet-stream, application/pdf or image/* are skipped
 *   entirely, as are excluded paths (`/exact` or `/prefix/**`).
 *
 * Defence in depth only: skipped requests carry raw values, and handlers must still encode their output.
 */
import { hasBody } from './middleware';
import type { AppMiddleware } from './state';

export interface XssFilterOptions {
  readonly enabled: boolean;
  /** `/exact/path` or `/prefix/**`. */
  readonly excludePaths: readonly string[];
  /** Header names (any case) never rewritten. */
  readonly exemptHeaders: readonly string[];
}

/** Headers the filter never rewrites, besides the configured token and idempotency header names. */
export const EXACT_BYTES_HEADERS = ['Authorization', 'Cookie', 'X-Sign', 'X-Nonce', 'X-App-Key', 'X-Timestamp', 'X-Idempotent-Token'] as const;

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

export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of patterns) {
    if (p.endsWith('/**')) prefixes.push(p.slice(0, -3));
    else exact.add(p);
  }
  return (path) => exact.has(path) || prefixes.some((pre) => path === pre || path.startsWith(`${pre}/`));
}

export function xssFilter(opts: XssFilterOptions): AppMiddleware {
  const exempt = new Set(opts.exemptHeaders.map((h) => h.toLowerCase()));
  const excluded = pathMatcher(opts.excludePaths);
  return async function xssFilter(ctx, next) {
    // The content-type skip applies only to requests that carry such a body; a bodiless request
    // cannot switch the filter off by naming a content type.
    if (!opts.enabled || excluded(ctx.path) || (hasBody(ctx) && isSkippedContentType(ctx.request.type))) {
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
      if (changed) ctx.query = clean; // re-encodes the query string: ctx.query/ctx.querystring/ctx.url agree
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
