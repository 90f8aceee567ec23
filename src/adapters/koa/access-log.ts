/**
 * One access line per request, written after the response is decided (this middleware wraps the
 * error edge, so it sees the final status). It logs the route template, never headers, bodies or
 * the query string, so no credential can reach the access log through it.
 */
import type { Logger } from '../../application/ports/logger';
import type { AppContext, AppMiddleware } from './state';

/** The route template the router matched (`/users/:id`), or "unmatched" (bounded label set). */
export function routeTemplateOf(ctx: AppContext): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

export function accessLog(opts: { log: Logger; app?: string }): AppMiddleware {
  const app = opts.app;
  return async function accessLog(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      opts.log.info(
        {
          // A fixed shape, not an object spread (`...(app ? {app} : {})`): the conditional spread takes
          // a slow path in V8, on a path every request takes. undefined is left out of the line.
          app,
          requestId: ctx.state.requestId,
          method: ctx.method,
          route: routeTemplateOf(ctx),
          path: ctx.path,
          status: ctx.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          clientIp: ctx.state.clientIp,
        },
        'request',
      );
    }
  };
}
