/**
 * HTTP hygiene shared by both apps: security headers (helmet) and CORS for configured origins.
 * Both wrap the error edge, so error responses carry the same headers as successes.
 */
import cors from '@koa/cors';
import helmet from 'koa-helmet';
import type { AppMiddleware } from './state';

/**
 * Helmet's defaults, which Swagger UI works with: its page loads only same-origin scripts
 * (script-src 'self'), inline styles are allowed (style-src 'unsafe-inline') and its icons are
 * data: images (img-src data:). API responses are JSON, so the CSP costs them nothing.
 */
export function securityHeaders(): AppMiddleware {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: { 'script-src': ["'self'"], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'], 'connect-src': ["'self'"] },
    },
    // Cross-origin API calls from the allowed front-ends must be able to read responses.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  }) as unknown as AppMiddleware;
}

/** Headers a browser client may read on a cross-origin response. */
const EXPOSED = ['X-Request-Id', 'WWW-Authenticate', 'Retry-After', 'RateLimit', 'RateLimit-Policy'];

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
