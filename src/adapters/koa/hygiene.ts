/**
 * HTTP hygiene shared by both apps: security headers (helmet's full set on HTML, the OWASP REST
 * API set on everything else) and CORS for configured origins. Both wrap the error edge, so error
 * responses carry the same headers as successes of the same content type.
 */
import cors from '@koa/cors';
import helmetCore, { type HelmetOptions } from 'helmet';
import type { AppMiddleware } from './state';

type HeaderList = ReadonlyArray<readonly [string, string]>;

/**
 * The full helmet set, for HTML responses: helmet's defaults, which Swagger UI and the try-it
 * page work with: they load only same-origin scripts (script-src 'self'), inline styles are
 * allowed (style-src 'unsafe-inline') and Swagger UI's icons are data: images (img-src data:).
 * Cross-origin API calls from the allowed front-ends must be able to read responses (CORP).
 */
export const HTML_SECURITY_HEADERS: HeaderList = staticHelmetHeaders({
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
});

/**
 * The API set, for every other response (JSON, problem+json, Prometheus text, scripts, styles,
 * images, empty bodies): the OWASP REST Security Cheat Sheet's "Security Headers" list, with its
 * example CSP (default-src 'none') and Referrer-Policy. The rest of helmet's headers only act on
 * documents a browser renders as HTML, and every header costs throughput on both ends. HSTS keeps
 * helmet's value; CORP stays cross-origin so the allowed front-ends can read responses. `Cache-Control: no-store` (also on that list) is
 * added only when
 * the route set no Cache-Control of its own (assets and problem pages are cacheable on purpose).
 */
export const API_SECURITY_HEADERS: HeaderList = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', headerValue(HTML_SECURITY_HEADERS, 'Strict-Transport-Security')],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ['Referrer-Policy', 'no-referrer'],
];

/** A media type a browser renders as a document that can run script (`text/html`, XHTML). */
const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/**
 * Security headers chosen by the response's final Content-Type: the full helmet set on HTML, the
 * API set on everything else. Decided after the rest of the chain (error edge included) has run,
 * and still before Koa writes the response (Koa's respond() runs after the middleware promise
 * resolves, for buffered and streamed bodies alike). A response whose headers already left
 * (a handler that wrote to `ctx.res` itself) is skipped, never thrown on.
 */
export function securityHeaders(): AppMiddleware {
  const html = HTML_SECURITY_HEADERS;
  const api = API_SECURITY_HEADERS;
  return async function securityHeaders(ctx, next) {
    try {
      await next();
    } finally {
      const res = ctx.res;
      if (!res.headersSent) {
        const type = res.getHeader('Content-Type');
        if (typeof type === 'string' && HTML_TYPE.test(type)) {
          for (const [name, value] of html) res.setHeader(name, value);
        } else {
          for (const [name, value] of api) res.setHeader(name, value);
          if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', 'no-store');
        }
      }
    }
  };
}

function headerValue(headers: HeaderList, name: string): string {
  const found = headers.find(([n]) => n.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw new Error(`helmet did not set ${name}`);
  return found[1];
}

/**
 * Helmet's headers with these options do not depend on the request (no CSP nonces), so they are
 * computed once at start-up by running helmet against a recording response, instead of helmet
 * rebuilding the same strings on every request.
 */
function staticHelmetHeaders(options: HelmetOptions): HeaderList {
  const recorded = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      recorded.set(name, Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => recorded.delete(name),
    getHeader: (name: string) => recorded.get(name),
  };
  let called = false;
  helmetCore(options)({ headers: {} } as never, res as never, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not run synchronously');
  return [...recorded.entries()];
}

/** Headers a browser client may read on a cross-origin response. */
const EXPOSED = ['X-Request-Id', 'WWW-Authenticate', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'ETag'];

/**
 * CORS for exactly the configured origins (`*` allows any). Tokens travel in the Authorization
 * header, never in cookies, so credentials are not allowed. No origins: no CORS headers at all.
 */
export function corsFor(allowedOrigins: readonly string[]): AppMiddleware | null {
  if (allowedOrigins.length === 0) return null;
  const any = allowedOrigins.includes('*');
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/$/, '').toLowerCase()));
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (any) return '*';
      return allowed.has(origin.toLowerCase()) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposeHeaders: EXPOSED,
    maxAge: 600,
    credentials: false,
  }) as unknown as AppMiddleware;
}
