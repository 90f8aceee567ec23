/** Observes every request's duration by method, route template and final status (wraps the error edge). */
import { routeTemplateOf } from './access-log';
import type { AppMiddleware } from './state';

export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

export function requestMetrics(observe: RequestObserver): AppMiddleware {
  return async function requestMetrics(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      observe(ctx.method, routeTemplateOf(ctx), ctx.status, (performance.now() - started) / 1000);
    }
  };
}
