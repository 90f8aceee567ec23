/**
 * `GET /problems/<reason>`: the page a problem's `type` URI resolves to (RFC 9457 §3.1.1 recommends
 * that it explain the problem to a human). One short, self-contained HTML page per catalogue
 * reason (no scripts, no external resources); an unknown reason is a 404 problem. Every string
 * written into the page is HTML-escaped.
 */
import { DomainError, type Reason } from '../../../domain/errors';
import { ERROR_CATALOGUE } from '../error-catalogue';
import { PROBLEM_PAGES } from '../problem-pages';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { HtmlPage } from '../schemas/operation-schemas';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function problemPageHtml(reason: Reason, typeUri: string): string {
  const entry = ERROR_CATALOGUE[reason];
  const page = PROBLEM_PAGES[reason];
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(entry.title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
code{background:#f2f2f2;padding:0 .25rem}dt{font-weight:600}
</style>
</head>
<body>
<h1>${e(entry.title)}</h1>
<dl>
<dt>HTTP status</dt><dd><code>${entry.status}</code></dd>
<dt>Problem type</dt><dd><code>${e(typeUri)}</code> (the <code>code</code> member is <code>${e(reason)}</code>)</dd>
</dl>
<h2>What happened</h2>
<p>${e(page.what)}</p>
<h2>What to do</h2>
<p>${e(page.todo)}</p>
<p>The response body is <code>application/problem+json</code> (RFC 9457): <code>detail</code> describes this occurrence,
<code>instance</code> identifies the request (quote it when you report a problem).</p>
</body>
</html>
`;
}

/** A reason of the catalogue (an own key of PROBLEM_PAGES, so `__proto__` and the like are not). */
function isReason(s: string): s is Reason {
  return Object.prototype.hasOwnProperty.call(PROBLEM_PAGES, s);
}

export function problemRoutes(kit: RouteKit): RouteDef[] {
  const typeBase = kit.settings.problemBaseUri;
  return [
    route({
      method: 'get',
      path: '/problems/:reason',
      summary: 'Human documentation of a problem type (the page each problem `type` URI resolves to)',
      tags: ['problems'],
      raw: { content: { 'text/html': HtmlPage } },
      raises: ['not-found'],
      handler: async (ctx, { params: { reason } }) => {
        if (!isReason(reason)) throw new DomainError('not-found', 'There is no such problem type.');
        ctx.status = 200;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.body = problemPageHtml(reason, typeBase + reason);
      },
    }),
  ];
}
